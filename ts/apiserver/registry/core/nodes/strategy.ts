/**
 * The node strategy (pkg/registry/core/node/strategy.go, v1.32): "Nodes allow *all* fields,
 * including status, to be set on create" — nodeStrategy.PrepareForCreate keeps the status sent.
 */
import type { ResourceStrategy } from '../../strategy.js';

export const nodeStrategy: ResourceStrategy = {
  prepareForCreate() {},
};

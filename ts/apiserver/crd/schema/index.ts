/**
 * The structural-schema library of custom resources (apiextensions-apiserver
 * pkg/apiserver/schema, pkg/apiserver/validation): CRD schema validation, custom resource
 * validation with kube-openapi's messages, defaulting, pruning and the published OpenAPI form.
 * x-kubernetes-validations (CEL) rules are not evaluated.
 */
export { type CoerceResult, coerceEmbeddedResources } from './coerce.js';
export { validateCustomResource } from './custom-resource-validation.js';
export { applyDefaults } from './defaulting.js';
export { definitionName, type GroupVersionKind, openApiV3ListSchema, openApiV3Schema } from './openapi-publish.js';
export { type PruneOptions, prune } from './pruning.js';
export { type StructuralOptions, validateStructural } from './schema-validation.js';
export type { JSONSchemaProps, ValidationRule } from './types.js';

// Inputs ported from pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go
// (TestImageLocalityPriority, TestNormalizedImageName). Upstream's expected scores in the stored
// copy (0/10, 15/0, 100/0, 65/0/0) predate the per-container threshold (maxThreshold =
// 1000MiB × #containers, added with init-container images); the values below are those of the
// current formula, with the arithmetic in each comment.

import { describe, expect, it } from 'vitest';
import { runScore, scoreMap } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { ContainerImage } from '../types.js';
import {
  imageLocalityPriority,
  imageLocalityScore,
  MAX_CONTAINER_THRESHOLD,
  MIN_THRESHOLD,
  normalizedImageName,
} from './image-locality.js';

const MB = 1024 * 1024;
const node403002000: ContainerImage[] = [
  { names: ['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], sizeBytes: 40 * MB },
  { names: ['gcr.io/300:latest', 'gcr.io/300:v1'], sizeBytes: 300 * MB },
  { names: ['gcr.io/2000:latest'], sizeBytes: 2000 * MB },
];
const node25010: ContainerImage[] = [
  { names: ['gcr.io/250:latest'], sizeBytes: 250 * MB },
  { names: ['gcr.io/10:latest', 'gcr.io/10:v1'], sizeBytes: 10 * MB },
];
const images = (...names: string[]) =>
  makePod('p', { containers: names.map((image, i) => ({ name: `c${i}`, image })) });

describe('ImageLocality (TestImageLocalityPriority)', () => {
  it('"two images spread on two nodes, prefer the larger image one"', () => {
    // machine1: 40MB/2 = 20MB < 23MB → 0. machine2: 250MB/2 = 125MB → 100·(125−23)/(2000−23) = 5.
    const nodes = [makeNode('machine1', { images: node403002000 }), makeNode('machine2', { images: node25010 })];
    expect(scoreMap(runScore(imageLocalityScore(), images('gcr.io/40', 'gcr.io/250'), { nodes }))).toEqual({
      machine1: 0,
      machine2: 5,
    });
  });
  it('"two images on one node, prefer this node"', () => {
    // machine1: (40 + 300)MB/2 = 170MB → 100·147/1977 = 7.
    const nodes = [makeNode('machine1', { images: node403002000 }), makeNode('machine2', { images: node25010 })];
    expect(scoreMap(runScore(imageLocalityScore(), images('gcr.io/40', 'gcr.io/300'), { nodes }))).toEqual({
      machine1: 7,
      machine2: 0,
    });
  });
  it('"if exceed limit, use limit"', () => {
    // machine1: 2000MB/2 = 1000MB → 100·977/1977 = 49. machine2: 10MB/2 → 0.
    const nodes = [makeNode('machine1', { images: node403002000 }), makeNode('machine2', { images: node25010 })];
    expect(scoreMap(runScore(imageLocalityScore(), images('gcr.io/10', 'gcr.io/2000'), { nodes }))).toEqual({
      machine1: 49,
      machine2: 0,
    });
  });
  it('"if exceed limit, use limit (with node which has no images present)"', () => {
    // machine1: int(2000MB/3) = 699050666 → 100·(699050666 − 23MB)/(2000MB − 23MB) = 32.
    const nodes = [
      makeNode('machine1', { images: node403002000 }),
      makeNode('machine2', { images: node25010 }),
      makeNode('machine3'),
    ];
    expect(scoreMap(runScore(imageLocalityScore(), images('gcr.io/10', 'gcr.io/2000'), { nodes }))).toEqual({
      machine1: 32,
      machine2: 0,
      machine3: 0,
    });
  });
  it('one container reproduces the single-threshold formula: 100·(sum − 23MB)/(1000MB − 23MB)', () => {
    expect(imageLocalityPriority(125 * MB, 1)).toBe(10);
    expect(imageLocalityPriority(MAX_CONTAINER_THRESHOLD * 3, 1)).toBe(100);
    expect(imageLocalityPriority(MIN_THRESHOLD - 1, 1)).toBe(0);
  });
  it('counts init-container images too', () => {
    const nodes = [makeNode('machine1', { images: node403002000 }), makeNode('machine2')];
    const pod = makePod('p', { initContainers: [{ image: 'gcr.io/2000' }], containers: [{ image: 'gcr.io/40' }] });
    // (1000MB + 20MB) vs max 2000MB: 100·(1020 − 23)/1977 = 50.
    expect(scoreMap(runScore(imageLocalityScore(), pod, { nodes }))).toEqual({ machine1: 50, machine2: 0 });
  });
});

describe('normalizedImageName (TestNormalizedImageName)', () => {
  it.each([
    ['add :latest postfix 1', 'root', 'root:latest'],
    ['add :latest postfix 2', 'gcr.io:5000/root', 'gcr.io:5000/root:latest'],
    ['keep it as is 1', 'root:tag', 'root:tag'],
    ['keep it as is 2', 'root@sha256:abc', 'root@sha256:abc'],
  ])('%s', (_name, input, output) => {
    expect(normalizedImageName(input)).toBe(output);
  });
});

// ImageLocality (plugins/imagelocality): favour nodes that already hold the pod's images, each
// image's size scaled by the fraction of all nodes holding it (to avoid piling onto one node).
// sum clamped to [23 MiB, 1000 MiB × #containers], score = 100 × (sum − 23Mi) / (max − 23Mi).

import { goDiv, MAX_NODE_SCORE, type ScorePlugin } from '../framework.js';
import type { NodeInfo } from '../snapshot.js';
import type { Pod } from '../types.js';

const MB = 1024 * 1024;
/** imagelocality.minThreshold. */
export const MIN_THRESHOLD = 23 * MB;
/** imagelocality.maxContainerThreshold (per container). */
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** normalizedImageName: append ":latest" when the name has no tag after its last "/". */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/** calculatePriority. */
export function imageLocalityPriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  const clamped = Math.min(Math.max(sumScores, MIN_THRESHOLD), Math.max(maxThreshold, MIN_THRESHOLD));
  if (maxThreshold <= MIN_THRESHOLD) return 0;
  return goDiv(MAX_NODE_SCORE * (clamped - MIN_THRESHOLD), maxThreshold - MIN_THRESHOLD);
}

/** sumImageScores over init and app containers: Σ int64(size × numNodes/totalNodes). */
export function sumImageScores(node: NodeInfo, pod: Pod, totalNumNodes: number): number {
  let sum = 0;
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    const state = node.imageStates.get(normalizedImageName(c.image ?? ''));
    if (state !== undefined) sum += Math.trunc(state.size * (state.numNodes / totalNumNodes));
  }
  return sum;
}

export function imageLocalityScore(): ScorePlugin {
  return {
    name: 'ImageLocality',
    preScore(pod, snapshot) {
      const total = snapshot.nodeInfos.length;
      const numContainers = (pod.spec.initContainers ?? []).length + pod.spec.containers.length;
      return {
        kind: 'score',
        score: (node) => imageLocalityPriority(sumImageScores(node, pod, total), numContainers),
      };
    },
  };
}

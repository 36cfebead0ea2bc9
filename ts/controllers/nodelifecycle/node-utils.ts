/**
 * What the node lifecycle controller takes from pkg/controller/util/node/controller_utils.go and
 * pkg/controller/controller_utils.go (v1.32): the node-controller taint writes
 * (AddOrUpdateTaintOnNode, RemoveTaintOffNode, PatchNodeTaints — a strategic-merge patch replacing
 * spec.taints with the read resourceVersion as a precondition, retried on conflict with
 * UpdateTaintBackoff — and SwapNodeControllerTaint, which stamps timeAdded), AddOrUpdateLabelsOnNode,
 * MarkPodsNotReady, RecordNodeEvent, RecordNodeStatusChange, GetNodeCondition and
 * component-helpers' GetZoneKey.
 *
 *   const ok = await swapNodeControllerTaint(ctx, [NOT_READY_TAINT], [UNREACHABLE_TAINT], node);
 *   await markPodsNotReady(ctx, pods, 'node-1');
 */
import { isConflict, isNotFound } from '../../api/status.js';
import { addOrUpdateTaint, removeTaint, taintExists } from '../../api/taints.js';
import { rfc3339 } from '../../api/time.js';
import type { Node, NodeCondition, NodeStatus, Pod, Taint } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { EventRecorder, EventType } from '../../client/event-recorder.js';
import { RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import { aggregateErrors } from '../framework/aggregate-errors.js';
import { updatePodCondition } from '../tainteviction/taint-eviction-controller.js';

// controller_utils.go UpdateTaintBackoff and UpdateLabelBackoff: Steps 5, Duration 100 ms (Jitter
// 1.0 left out, as kubewasm's other backoffs leave it out).
export const UPDATE_TAINT_BACKOFF = { steps: 5, durationMs: 100 } as const;
// component-helpers node/topology: the zone and region labels, beta first.
const LABEL_FAILURE_DOMAIN_BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone';
const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
const LABEL_FAILURE_DOMAIN_BETA_REGION = 'failure-domain.beta.kubernetes.io/region';
const LABEL_TOPOLOGY_REGION = 'topology.kubernetes.io/region';

type RNode = DeepReadonly<Node>;
type RTaint = DeepReadonly<Taint>;

/** What the helpers write with: the node-controller client, its clock, recorder and error sink. */
export interface NodeUtilContext {
  client: Client;
  clock: Clock;
  recorder: EventRecorder;
  onError: (err: unknown, key: string) => void;
}

/** GetZoneKey: `region:\0:zone` from the beta labels, else the GA ones; '' when neither is set. */
export function getZoneKey(node: RNode): string {
  const labels = node.metadata?.labels;
  if (labels === undefined) return '';
  const zone = labels[LABEL_FAILURE_DOMAIN_BETA_ZONE] ?? labels[LABEL_TOPOLOGY_ZONE] ?? '';
  const region = labels[LABEL_FAILURE_DOMAIN_BETA_REGION] ?? labels[LABEL_TOPOLOGY_REGION] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

/** GetNodeCondition. */
export function getNodeCondition<C extends DeepReadonly<NodeCondition> | NodeCondition>(
  status: { conditions?: readonly C[] } | DeepReadonly<NodeStatus> | undefined,
  type: string,
): C | undefined {
  const conditions = (status?.conditions ?? []) as readonly C[];
  return conditions.find((c) => c.type === type);
}

/** clientretry.RetryOnConflict with UpdateTaintBackoff, on the clock. */
async function retryOnConflict(clock: Clock, fn: () => Promise<void>): Promise<void> {
  for (let step = 1; ; step++) {
    try {
      await fn();
      return;
    } catch (err) {
      if (!isConflict(err) || step >= UPDATE_TAINT_BACKOFF.steps) throw err;
    }
    await new Promise<void>((resolve) => clock.setTimer(resolve, UPDATE_TAINT_BACKOFF.durationMs));
  }
}

/** PatchNodeTaints: spec.taints replaced, the read resourceVersion a precondition. */
async function patchNodeTaints(client: Client, old: Node, taints: Taint[]): Promise<void> {
  const name = old.metadata?.name ?? '';
  await client.patch(RESOURCES.nodes, undefined, name, 'strategic', {
    metadata: { resourceVersion: old.metadata?.resourceVersion },
    spec: { taints: taints.length === 0 ? null : taints },
  });
}

/** AddOrUpdateTaintOnNode: each taint added or updated on a fresh read; no write if none changes. */
export async function addOrUpdateTaintOnNode(
  ctx: NodeUtilContext,
  nodeName: string,
  taints: readonly RTaint[],
): Promise<void> {
  if (taints.length === 0) return;
  await retryOnConflict(ctx.clock, async () => {
    const old = await ctx.client.get(RESOURCES.nodes, undefined, nodeName);
    let current: Taint[] = old.spec?.taints ?? [];
    let updated = false;
    for (const t of taints) {
      const [next, ok] = addOrUpdateTaint(current, t);
      updated = updated || ok;
      current = next;
    }
    if (!updated) return;
    await patchNodeTaints(ctx.client, old, current);
  });
}

/**
 * RemoveTaintOffNode: the taints removed on a fresh read; nothing is read when `node` is given and
 * has none of them.
 */
export async function removeTaintOffNode(
  ctx: NodeUtilContext,
  nodeName: string,
  node: RNode | undefined,
  taints: readonly RTaint[],
): Promise<void> {
  if (taints.length === 0) return;
  if (node !== undefined && !taints.some((t) => taintExists(node.spec?.taints ?? [], t))) return;
  await retryOnConflict(ctx.clock, async () => {
    const old = await ctx.client.get(RESOURCES.nodes, undefined, nodeName);
    let current: Taint[] = old.spec?.taints ?? [];
    let updated = false;
    for (const t of taints) {
      const [next, ok] = removeTaint(current, t);
      updated = updated || ok;
      current = next;
    }
    if (!updated) return;
    await patchNodeTaints(ctx.client, old, current);
  });
}

/** SwapNodeControllerTaint: the taints to add stamped with timeAdded now and added, the others removed; false on a failure (reported). */
export async function swapNodeControllerTaint(
  ctx: NodeUtilContext,
  taintsToAdd: readonly RTaint[],
  taintsToRemove: readonly RTaint[],
  node: RNode,
): Promise<boolean> {
  const name = node.metadata?.name ?? '';
  const now = rfc3339(ctx.clock.now());
  const stamped = taintsToAdd.map((t) => ({ ...t, timeAdded: now }));
  try {
    await addOrUpdateTaintOnNode(ctx, name, stamped);
  } catch (err) {
    ctx.onError(
      new Error(`unable to taint ${JSON.stringify(stamped)} unresponsive Node "${name}": ${errText(err)}`),
      name,
    );
    return false;
  }
  try {
    await removeTaintOffNode(ctx, name, node, taintsToRemove);
  } catch (err) {
    ctx.onError(
      new Error(
        `unable to remove ${JSON.stringify(taintsToRemove)} unneeded taint from unresponsive Node "${name}": ${errText(err)}`,
      ),
      name,
    );
    return false;
  }
  return true;
}

/** AddOrUpdateLabelsOnNode: the labels merged in on a fresh read (retried on conflict); false on a failure (reported). */
export async function addOrUpdateLabelsOnNode(
  ctx: NodeUtilContext,
  labelsToUpdate: Readonly<Record<string, string>>,
  nodeName: string,
): Promise<boolean> {
  try {
    await retryOnConflict(ctx.clock, async () => {
      const node = await ctx.client.get(RESOURCES.nodes, undefined, nodeName);
      const labels = node.metadata?.labels ?? {};
      const changed = Object.entries(labelsToUpdate).filter(([k, v]) => labels[k] !== v);
      if (changed.length === 0) return;
      await ctx.client.patch(RESOURCES.nodes, undefined, nodeName, 'strategic', {
        metadata: { labels: Object.fromEntries(changed) },
      });
    });
    return true;
  } catch (err) {
    ctx.onError(
      new Error(`unable to update labels ${JSON.stringify(labelsToUpdate)} for Node "${nodeName}": ${errText(err)}`),
      nodeName,
    );
    return false;
  }
}

/**
 * MarkPodsNotReady: the Ready condition of each pod on `nodeName` set False (UpdatePodCondition;
 * no write when it is False already) by an UpdateStatus of the cached pod, and a NodeNotReady
 * Warning on it; a pod gone meanwhile is skipped. Rejects with the aggregate of the failures.
 */
export async function markPodsNotReady(
  ctx: NodeUtilContext,
  pods: readonly DeepReadonly<Pod>[],
  nodeName: string,
): Promise<void> {
  const errs: unknown[] = [];
  for (const cached of pods) {
    if ((cached.spec?.nodeName ?? '') !== nodeName) continue;
    const pod = structuredClone(cached) as Pod;
    const conditions = pod.status?.conditions ?? [];
    const index = conditions.findIndex((c) => c.type === 'Ready');
    const ready = conditions[index];
    if (ready === undefined) continue;
    const next = updatePodCondition(conditions, { ...ready, status: 'False' }, ctx.clock.now());
    if (next === undefined) continue;
    conditions[index] = next;
    try {
      await ctx.client.updateStatus(RESOURCES.pods, pod.metadata?.namespace, pod);
    } catch (err) {
      if (isNotFound(err)) continue;
      errs.push(err);
    }
    ctx.recorder.record({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'NodeNotReady', 'Node is not ready');
  }
  const err = aggregateErrors(errs);
  if (err !== undefined) throw err;
}

/** RecordNodeEvent: `Node <name> event: <event>` about the Node (by name and uid). */
export function recordNodeEvent(
  recorder: EventRecorder,
  nodeName: string,
  nodeUID: string,
  type: EventType,
  reason: string,
  event: string,
): void {
  recorder.record(
    { apiVersion: 'v1', kind: 'Node', metadata: { name: nodeName, ...(nodeUID ? { uid: nodeUID } : {}) } },
    type,
    reason,
    `Node ${nodeName} event: ${event}`,
  );
}

/** RecordNodeStatusChange: `Node <name> status is now: <status>`, Normal, reason the status. */
export function recordNodeStatusChange(recorder: EventRecorder, node: RNode, newStatus: string): void {
  const { name = '', uid } = node.metadata ?? {};
  recorder.record(
    { apiVersion: 'v1', kind: 'Node', metadata: { name, ...(uid ? { uid } : {}) } },
    'Normal',
    newStatus,
    `Node ${name} status is now: ${newStatus}`,
  );
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

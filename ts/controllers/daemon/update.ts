/**
 * The DaemonSet controller's updates and history (pkg/controller/daemon/update.go at v1.32):
 * RollingUpdate — with maxSurge 0, old pods deleted while at most maxUnavailable nodes are
 * unavailable (manage makes the new ones); with maxSurge, new pods made beside the old on at most
 * maxSurge nodes and the old deleted once the new is available — and the ControllerRevisions:
 * `<ds>-<hash>` holding the template as a `$patch: replace` patch, the current one found by its
 * data (duplicates merged, its revision raised above the others), a hash collision counted in
 * status.collisionCount, old ones beyond revisionHistoryLimit deleted unless a pod still runs them.
 * OnDelete does nothing here: manage replaces a pod once someone deletes it.
 *
 *   const { cur, old } = await constructHistory(dsc, ds);
 *   const hash = cur.metadata.labels['controller-revision-hash'];
 *   await rollingUpdate(dsc, ds, nodes, hash);
 *   await cleanupHistory(dsc, ds, old);
 */
import { labelSelectorAsSelector } from '../../api/labels/label-selector.js';
import type { LabelSelector } from '../../api/meta.js';
import { isAlreadyExists } from '../../api/status.js';
import type { ControllerRevision, DaemonSet } from '../../api/types/apps/v1.js';
import type { Node, Pod } from '../../api/types/core/v1.js';
import type { DeepReadonly } from '../../api/types/readonly.js';
import type { Client } from '../../client/client.js';
import type { SharedIndexInformer } from '../../client/informers/shared-informer.js';
import { RESOURCES } from '../../client/resources.js';
import type { Clock } from '../../sim/clock.js';
import { computeHash } from '../deployment/util/hash.js';
import { isPodAvailable } from '../framework/active-pods.js';
import { freshController, recheckDeletionTimestamp } from '../framework/controller-ref-manager.js';
import { maxRevision, revisionDataText } from '../history/controller-history.js';
import { claimControllerRevisions } from '../history/controller-revision-ref-manager.js';
import { templatePatch } from '../history/template-patch.js';
import {
  DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY,
  isPodUpdated,
  nodeShouldRunDaemonPod,
  surgeCount,
  templateGeneration,
  unavailableCount,
} from './util.js';

type RDaemonSet = DeepReadonly<DaemonSet>;
type RPod = DeepReadonly<Pod>;
type RRevision = DeepReadonly<ControllerRevision>;

/** What update.go uses of the controller (daemon-set-controller.ts implements it). */
export interface DaemonSetHost {
  readonly client: Client;
  readonly clock: Clock;
  readonly histories: SharedIndexInformer<ControllerRevision>;
  readonly pods: SharedIndexInformer<Pod>;
  nodeNamed(name: string): DeepReadonly<Node> | undefined;
  getDaemonPods(ds: RDaemonSet): Promise<RPod[]>;
  getNodesToDaemonPods(ds: RDaemonSet, includeDeletedTerminal: boolean): Promise<Map<string, RPod[]>>;
  syncNodes(ds: RDaemonSet, podsToDelete: readonly string[], nodes: readonly string[], hash: string): Promise<void>;
}

const DAEMON_SET_GVK = { group: 'apps', version: 'v1', kind: 'DaemonSet' };

/**
 * rollingUpdate: the old pods to delete and (with maxSurge) the nodes to surge onto, as update.go
 * counts them; syncNodes does it.
 */
export async function rollingUpdate(
  host: DaemonSetHost,
  ds: RDaemonSet,
  nodeList: readonly DeepReadonly<Node>[],
  hash: string,
): Promise<void> {
  let nodeToDaemonPods: Map<string, RPod[]>;
  try {
    nodeToDaemonPods = await host.getNodesToDaemonPods(ds, false);
  } catch (err) {
    throw new Error(`couldn't get node to daemon pod mapping for daemon set "${ds.metadata?.name ?? ''}": ${msg(err)}`);
  }
  const { maxSurge, maxUnavailable, desiredNumberScheduled } = updatedDesiredNodeCounts(ds, nodeList, nodeToDaemonPods);
  const now = host.clock.now();
  const minReadySeconds = ds.spec?.minReadySeconds ?? 0;
  const available = (pod: RPod): boolean => isPodAvailable(pod, minReadySeconds, now);

  if (maxSurge === 0) {
    // Delete old pods while fewer than maxUnavailable nodes are unavailable; manage makes the new.
    let numUnavailable = 0;
    const allowedReplacementPods: string[] = [];
    const candidatePodsToDelete: string[] = [];
    for (const pods of nodeToDaemonPods.values()) {
      const found = findUpdatedPodsOnNode(ds, pods, hash);
      if (found === undefined) {
        // More than one old or new pod: manage deletes the extras first.
        numUnavailable++;
        continue;
      }
      const { newPod, oldPod } = found;
      if ((oldPod === undefined && newPod === undefined) || (oldPod !== undefined && newPod !== undefined)) {
        // No pod (manage makes one), or both (manage deletes the old).
        numUnavailable++;
      } else if (newPod !== undefined) {
        if (!available(newPod)) numUnavailable++;
      } else if (oldPod !== undefined) {
        if (!available(oldPod)) {
          // An unavailable old pod is replaced without counting against maxUnavailable.
          allowedReplacementPods.push(oldPod.metadata?.name ?? '');
          numUnavailable++;
        } else if (numUnavailable < maxUnavailable) {
          candidatePodsToDelete.push(oldPod.metadata?.name ?? '');
        }
      }
    }
    const remaining = Math.min(Math.max(maxUnavailable - numUnavailable, 0), candidatePodsToDelete.length);
    const oldPodsToDelete = [...allowedReplacementPods, ...candidatePodsToDelete.slice(0, remaining)];
    await host.syncNodes(ds, oldPodsToDelete, [], hash);
    return;
  }

  // Surging: new pods beside old ones on at most maxSurge nodes; the old deleted once the new is available.
  const oldPodsToDelete: string[] = [];
  const shouldNotRunPodsToDelete: string[] = [];
  const candidateNewNodes: string[] = [];
  const allowedNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of nodeToDaemonPods) {
    const found = findUpdatedPodsOnNode(ds, pods, hash);
    if (found === undefined) {
      numSurge++;
      continue;
    }
    const { newPod, oldPod } = found;
    if (oldPod !== undefined) {
      if (available(oldPod)) numAvailable++;
    } else if (newPod !== undefined) {
      if (available(newPod)) numAvailable++;
    }
    if (oldPod === undefined) {
      // Nothing to do: manage makes a missing pod.
    } else if (newPod === undefined) {
      const node = host.nodeNamed(nodeName);
      if (node === undefined) throw new Error(`couldn't get node for nodeName "${nodeName}": not found`);
      const [shouldRun] = nodeShouldRunDaemonPod(node, ds);
      if (!available(oldPod)) {
        if (!shouldRun) {
          oldPodsToDelete.push(oldPod.metadata?.name ?? '');
          continue;
        }
        // An unavailable old pod: surged past without counting.
        allowedNewNodes.push(nodeName);
      } else {
        if (!shouldRun) {
          shouldNotRunPodsToDelete.push(oldPod.metadata?.name ?? '');
          continue;
        }
        if (numSurge >= maxSurge) continue;
        candidateNewNodes.push(nodeName);
      }
    } else {
      // Both: the old goes once the new is available.
      if (!available(newPod)) {
        numSurge++;
        continue;
      }
      oldPodsToDelete.push(oldPod.metadata?.name ?? '');
    }
  }
  let remainingSurge = maxSurge - numSurge;
  // Old pods on nodes that should no longer run them: deleted while more than the desired are available.
  let deletable = numAvailable - desiredNumberScheduled;
  if (deletable > 0) {
    deletable = Math.min(deletable, shouldNotRunPodsToDelete.length);
    for (const name of shouldNotRunPodsToDelete.slice(0, deletable)) {
      if (host.pods.get(ds.metadata?.namespace ?? '', name) === undefined) continue;
      oldPodsToDelete.push(name);
    }
  }
  remainingSurge = Math.min(Math.max(remainingSurge, 0), candidateNewNodes.length);
  const newNodesToCreate = [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)];
  await host.syncNodes(ds, oldPodsToDelete, newNodesToCreate, hash);
}

/**
 * updatedDesiredNodeCounts: maxSurge and maxUnavailable scaled to the nodes that should run the
 * pod (each given an entry in `nodeToDaemonPods`), maxUnavailable 1 when both are 0.
 */
export function updatedDesiredNodeCounts(
  ds: RDaemonSet,
  nodeList: readonly DeepReadonly<Node>[],
  nodeToDaemonPods: Map<string, RPod[]>,
): { maxSurge: number; maxUnavailable: number; desiredNumberScheduled: number } {
  let desiredNumberScheduled = 0;
  for (const node of nodeList) {
    if (!nodeShouldRunDaemonPod(node, ds)[0]) continue;
    desiredNumberScheduled++;
    const name = node.metadata?.name ?? '';
    if (!nodeToDaemonPods.has(name)) nodeToDaemonPods.set(name, []);
  }
  let maxUnavailable: number;
  try {
    maxUnavailable = unavailableCount(ds, desiredNumberScheduled);
  } catch (err) {
    throw new Error(`couldn't get unavailable numbers: invalid value for MaxUnavailable: ${msg(err)}`);
  }
  let maxSurge: number;
  try {
    maxSurge = surgeCount(ds, desiredNumberScheduled);
  } catch (err) {
    throw new Error(`couldn't get unavailable numbers: invalid value for MaxSurge: ${msg(err)}`);
  }
  // Both 0 (percentages rounded down to nothing): one at a time.
  if (desiredNumberScheduled > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable, desiredNumberScheduled };
}

/**
 * findUpdatedPodsOnNode: the node's one new and one old pod (those being deleted aside);
 * undefined when it has more than one of either.
 */
export function findUpdatedPodsOnNode(
  ds: RDaemonSet,
  podsOnNode: readonly RPod[],
  hash: string,
): { newPod?: RPod; oldPod?: RPod } | undefined {
  let newPod: RPod | undefined;
  let oldPod: RPod | undefined;
  const generation = templateGeneration(ds);
  for (const pod of podsOnNode) {
    if ((pod.metadata?.deletionTimestamp ?? null) !== null) continue;
    if (isPodUpdated(pod, hash, generation)) {
      if (newPod !== undefined) return undefined;
      newPod = pod;
    } else {
      if (oldPod !== undefined) return undefined;
      oldPod = pod;
    }
  }
  return { ...(newPod === undefined ? {} : { newPod }), ...(oldPod === undefined ? {} : { oldPod }) };
}

/** getPatch: the revision's data (history/template-patch.ts), as canonical JSON. */
export function getPatch(ds: RDaemonSet): string {
  return templatePatch(ds.spec?.template);
}

/** Match: the revision's data is the DaemonSet's current patch. */
export function match(ds: RDaemonSet, history: RRevision): boolean {
  return revisionDataText(history.data) === getPatch(ds);
}

/**
 * controlledHistories: the namespace's revisions claimed for `ds` (ClaimControllerRevisions:
 * matching orphans adopted, owned ones that stopped matching released).
 */
async function controlledHistories(host: DaemonSetHost, ds: RDaemonSet): Promise<RRevision[]> {
  const selector = labelSelectorAsSelector(ds.spec?.selector as LabelSelector | undefined);
  const histories = host.histories
    .lister()
    .byNamespace(ds.metadata?.namespace ?? '')
    .list();
  const canAdopt = recheckDeletionTimestamp(freshController(host.client, RESOURCES.daemonsets, ds, 'DaemonSet'));
  return claimControllerRevisions(host.client, ds, DAEMON_SET_GVK, selector, canAdopt, histories);
}

/**
 * constructHistory: the current revision (made by snapshot if none matches, duplicates merged by
 * dedupCurHistories, its revision raised to one above the old ones) and the old revisions.
 */
export async function constructHistory(
  host: DaemonSetHost,
  ds: RDaemonSet,
): Promise<{ cur: RRevision; old: RRevision[] }> {
  const namespace = ds.metadata?.namespace ?? '';
  const histories = await controlledHistories(host, ds);
  const current: RRevision[] = [];
  const old: RRevision[] = [];
  for (let history of histories) {
    // Revisions from before the hash label get it: their name.
    if (history.metadata?.labels?.[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] === undefined) {
      const toUpdate = structuredClone(history) as ControllerRevision;
      toUpdate.metadata ??= {};
      toUpdate.metadata.labels = {
        ...(toUpdate.metadata.labels ?? {}),
        [DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY]: toUpdate.metadata.name ?? '',
      };
      history = await host.client.update(RESOURCES.controllerrevisions, namespace, toUpdate);
    }
    if (match(ds, history)) current.push(history);
    else old.push(history);
  }
  const currRevision = maxRevision(old) + 1;
  let cur: RRevision;
  if (current.length === 0) {
    cur = await snapshot(host, ds, currRevision);
  } else {
    cur = await dedupCurHistories(host, ds, current);
    if ((cur.revision ?? 0) < currRevision) {
      const toUpdate = structuredClone(cur) as ControllerRevision;
      toUpdate.revision = currRevision;
      await host.client.update(RESOURCES.controllerrevisions, namespace, toUpdate);
    }
  }
  return { cur, old };
}

/**
 * cleanupHistory: the oldest old revisions beyond revisionHistoryLimit deleted, except those a pod
 * (terminal or being deleted included) still carries the hash of.
 */
export async function cleanupHistory(host: DaemonSetHost, ds: RDaemonSet, old: readonly RRevision[]): Promise<void> {
  let nodesToDaemonPods: Map<string, RPod[]>;
  try {
    nodesToDaemonPods = await host.getNodesToDaemonPods(ds, true);
  } catch (err) {
    throw new Error(`couldn't get node to daemon pod mapping for daemon set "${ds.metadata?.name ?? ''}": ${msg(err)}`);
  }
  const toKeep = ds.spec?.revisionHistoryLimit ?? 10;
  let toKill = old.length - toKeep;
  if (toKill <= 0) return;
  const liveHashes = new Set<string>();
  for (const pods of nodesToDaemonPods.values()) {
    for (const pod of pods) {
      const hash = pod.metadata?.labels?.[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] ?? '';
      if (hash !== '') liveHashes.add(hash);
    }
  }
  const sorted = [...old].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
  for (const history of sorted) {
    if (toKill <= 0) break;
    if (liveHashes.has(history.metadata?.labels?.[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] ?? '')) continue;
    await host.client.delete(RESOURCES.controllerrevisions, ds.metadata?.namespace, history.metadata?.name ?? '');
    toKill--;
  }
}

/**
 * dedupCurHistories: of several revisions matching the template, the highest revision kept, the
 * pods relabelled to its hash, the others deleted.
 */
async function dedupCurHistories(host: DaemonSetHost, ds: RDaemonSet, curHistories: RRevision[]): Promise<RRevision> {
  if (curHistories.length === 1) return curHistories[0] as RRevision;
  let max = 0;
  let keep = curHistories[0] as RRevision;
  for (const cur of curHistories) {
    if ((cur.revision ?? 0) >= max) {
      keep = cur;
      max = cur.revision ?? 0;
    }
  }
  const namespace = ds.metadata?.namespace ?? '';
  const keepHash = keep.metadata?.labels?.[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] ?? '';
  for (const pod of await host.getDaemonPods(ds)) {
    if (pod.metadata?.labels?.[DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY] !== keepHash) {
      await host.client.patch(RESOURCES.pods, namespace, pod.metadata?.name ?? '', 'merge', {
        metadata: { labels: { [DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY]: keepHash } },
      });
    }
  }
  for (const cur of curHistories) {
    if (cur.metadata?.name === keep.metadata?.name) continue;
    await host.client.delete(RESOURCES.controllerrevisions, namespace, cur.metadata?.name ?? '');
  }
  return keep;
}

/**
 * snapshot: the revision `<ds>-<hash>` created; a name taken by a revision of other data is a
 * hash collision — status.collisionCount raised (the next sync hashes anew) and the error returned.
 */
async function snapshot(host: DaemonSetHost, ds: RDaemonSet, revision: number): Promise<RRevision> {
  const namespace = ds.metadata?.namespace ?? '';
  const hash = computeHash(ds.spec?.template, ds.status?.collisionCount);
  const name = `${ds.metadata?.name ?? ''}-${hash}`;
  const history: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace,
      labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [DEFAULT_DAEMON_SET_UNIQUE_LABEL_KEY]: hash },
      ...(ds.metadata?.annotations === undefined ? {} : { annotations: { ...ds.metadata.annotations } }),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: ds.metadata?.name ?? '',
          uid: ds.metadata?.uid ?? '',
          blockOwnerDeletion: true,
          controller: true,
        },
      ],
    },
    data: JSON.parse(getPatch(ds)),
    revision,
  };
  try {
    return await host.client.create(RESOURCES.controllerrevisions, namespace, history);
  } catch (outerErr) {
    if (!isAlreadyExists(outerErr)) throw outerErr;
    const existed = await host.client.get(RESOURCES.controllerrevisions, namespace, name);
    if (match(ds, existed)) return existed;
    const currDS = await host.client.get(RESOURCES.daemonsets, namespace, ds.metadata?.name ?? '');
    if ((currDS.status?.collisionCount ?? null) !== (ds.status?.collisionCount ?? null)) {
      throw new Error(
        `found a stale collision count (${ds.status?.collisionCount ?? 0}, expected ${currDS.status?.collisionCount ?? 0}) of DaemonSet "${ds.metadata?.name ?? ''}" while processing; will retry until it is updated`,
      );
    }
    currDS.status = {
      ...(currDS.status ?? {
        currentNumberScheduled: 0,
        desiredNumberScheduled: 0,
        numberMisscheduled: 0,
        numberReady: 0,
      }),
      collisionCount: (currDS.status?.collisionCount ?? 0) + 1,
    };
    await host.client.updateStatus(RESOURCES.daemonsets, namespace, currDS);
    throw outerErr;
  }
}

const msg = (err: unknown): string => (err instanceof Error ? err.message : String(err));

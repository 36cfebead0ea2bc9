/**
 * kube-scheduler's engine in wasm: a node table that lives in wasm memory, fed Kubernetes Node
 * and Pod objects as JSON, scheduling a whole batch of pods per call.
 */
import * as glue from '../../build/wasm/kubewasm.js';
import { callWasm } from './errors.js';

/** A Kubernetes object as JSON (a v1 Node or Pod): the engine reads the fields it needs. */
export type KubeObject = object;

/** metav1.LabelSelector. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** A pod to schedule, with the selector of the Services/ReplicaSets/StatefulSets selecting it. */
export interface PendingPod {
  pod: KubeObject;
  defaultSpreadSelector?: LabelSelector;
}

/** kubescheduler.config.k8s.io/v1 KubeSchedulerProfile. */
export interface SchedulerProfile {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins?: Partial<
    Record<
      'multiPoint' | 'filter' | 'score' | 'postFilter',
      { enabled?: Array<{ name: string; weight?: number }>; disabled?: Array<{ name: string }> }
    >
  >;
  pluginConfig?: Array<{ name: string; args?: object }>;
}

export interface Placement {
  /** namespace/name. */
  pod: string;
  /** The chosen node; the pod is now assumed there. */
  node?: string;
  evaluatedNodes: number;
  feasibleNodes: number;
  /** kube-scheduler's FailedScheduling message when no node fits. */
  message?: string;
  nominatedNode?: string;
  /** namespace/name of pods preemption evicted. */
  victims?: string[];
  /**
   * When no node fits: the plugins that rejected the pod, sorted by name (kube-scheduler's
   * `Diagnosis.UnschedulablePlugins`, which the scheduling queue reads). Absent when none did,
   * as for "no nodes available to schedule pods".
   */
  unschedulablePlugins?: string[];
  /** The pod could not be read (e.g. an invalid selector): code and message. */
  error?: { code: string; message: string };
}

/** framework.ClusterEvent as a plugin registers it: the resource ("Node", "Pod", …, "*") and ActionType bits. */
export interface RegisteredEvent {
  resource: string;
  actionType: number;
}

export interface Explanation {
  pod: string;
  numFeasibleNodesToFind: number;
  chosen?: string;
  message?: string;
  nodes: Array<{
    node: string;
    feasible: boolean;
    examined: boolean;
    filters: Array<{ plugin: string; code: string; reasons?: string[] }>;
    scores: Array<{
      plugin: string;
      weight: number;
      skipped: boolean;
      raw: number;
      normalized: number;
      weighted: number;
    }>;
    total?: number;
  }>;
}

/**
 * The parts of a Pod the engine reads (the v1 mirror, crates/api/src/v1.rs `Pod`): an object from the API also
 * carries status, managedFields and annotations, which would only be written out and parsed again.
 */
function enginePod(pod: KubeObject): object {
  const { metadata, spec } = pod as { metadata?: Record<string, unknown>; spec?: unknown };
  if (metadata === undefined) return { spec };
  return {
    metadata: {
      name: metadata.name,
      namespace: metadata.namespace,
      uid: metadata.uid,
      labels: metadata.labels,
      creationTimestamp: metadata.creationTimestamp,
      deletionTimestamp: metadata.deletionTimestamp,
    },
    spec,
  };
}

function enginePending(p: PendingPod): object {
  return p.defaultSpreadSelector === undefined
    ? { pod: enginePod(p.pod) }
    : { pod: enginePod(p.pod), defaultSpreadSelector: p.defaultSpreadSelector };
}

const encoder = new TextEncoder();

/** A batch as UTF-8 JSON bytes: one copy into wasm memory (the engine's batch entry points take bytes). */
const jsonBytes = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

export class SchedulerEngine {
  private constructor(private readonly inner: glue.SchedulerEngine) {}

  /** An engine for `profile` (default: kube-scheduler's default profile), ties broken by `seed`. */
  static create(profile?: SchedulerProfile, seed = 0n): SchedulerEngine {
    return new SchedulerEngine(callWasm(() => new glue.SchedulerEngine(profile ? JSON.stringify(profile) : '', seed)));
  }

  upsertNodes(nodes: KubeObject[]): void {
    callWasm(() => this.inner.upsertNodes(jsonBytes(nodes)));
  }

  removeNode(name: string): void {
    callWasm(() => this.inner.removeNode(name));
  }

  /** Pods already bound (spec.nodeName set). */
  addPods(pods: KubeObject[]): void {
    callWasm(() => this.inner.addPods(jsonBytes(pods.map(enginePod))));
  }

  removePod(namespace: string, name: string): void {
    callWasm(() => this.inner.removePod(namespace, name));
  }

  bindPod(namespace: string, name: string): void {
    callWasm(() => this.inner.bindPod(namespace, name));
  }

  setNamespaceLabels(namespace: string, labels: Record<string, string>): void {
    callWasm(() => this.inner.setNamespaceLabels(namespace, JSON.stringify(labels)));
  }

  /** Schedules pods in order, assuming each placed pod before the next: one crossing per batch. */
  scheduleBatch(pending: PendingPod[]): Placement[] {
    return JSON.parse(callWasm(() => this.inner.scheduleBatch(jsonBytes(pending.map(enginePending))))) as Placement[];
  }

  /** Every node's verdict and score per plugin for one pod, changing nothing. */
  explain(pending: PendingPod): Explanation {
    return JSON.parse(callWasm(() => this.inner.explain(jsonBytes(enginePending(pending))))) as Explanation;
  }

  /**
   * The events each plugin of the engine's profile registered (EventsToRegister, declared beside
   * each plugin in crates/sched), plugin name → events: what the scheduling queue needs, asked once.
   */
  eventsToRegister(): Record<string, RegisteredEvent[]> {
    return JSON.parse(callWasm(() => this.inner.eventsToRegister())) as Record<string, RegisteredEvent[]>;
  }

  free(): void {
    this.inner.free();
  }
}

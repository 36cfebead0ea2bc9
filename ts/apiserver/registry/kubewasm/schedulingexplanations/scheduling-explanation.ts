/**
 * `scheduling.kubewasm.io/v1alpha1` SchedulingExplanation: a review-style resource (like
 * SubjectAccessReview) — create only, never stored. The request names a pod (`spec.namespace` +
 * `spec.podName`) or carries one inline (`spec.pod`); the answer's status is the live scheduler's
 * verdict for it on every node: each filter plugin's code and Kubernetes reason strings, each score
 * plugin's raw, normalized and weighted score, and the node it would choose. Nothing is changed.
 *
 *   POST /apis/scheduling.kubewasm.io/v1alpha1/schedulingexplanations
 *   {"apiVersion":"scheduling.kubewasm.io/v1alpha1","kind":"SchedulingExplanation",
 *    "spec":{"namespace":"default","podName":"web-0"}}
 *
 * The apiserver does not schedule: `kubewasm up` passes the scheduler running in its process as the
 * `explainer` option (ApiServerOptions); without one the request answers 503.
 */

import { type FieldError, FieldPath, invalid, required } from '../../../../api/field-errors.js';
import type { KubeObject } from '../../../../api/meta.js';
import { newInvalid, newMethodNotAllowed, newNotFound, newServiceUnavailable } from '../../../../api/status.js';
import type { Explanation } from '../../../../wasm/scheduler.js';
import { parseJsonObject } from '../../../decode/codec.js';
import { jsonResponse } from '../../../endpoints/response.js';

export const SCHEDULING_GROUP = 'scheduling.kubewasm.io';
export const SCHEDULING_EXPLANATION_VERSION = 'v1alpha1';
export const SCHEDULING_EXPLANATION_KIND = 'SchedulingExplanation';
export const SCHEDULING_EXPLANATION_RESOURCE = 'schedulingexplanations';

/** What the apiserver asks of the scheduler running beside it. */
export interface SchedulingExplainer {
  /** The pod as the scheduler's cache holds it; undefined when it does not know the pod. */
  explainPod(namespace: string, name: string): Explanation | undefined;
  /** A pod given inline, as if it were pending now. */
  explain(pod: KubeObject): Explanation;
}

export interface SchedulingExplanationSpec {
  namespace?: string;
  podName?: string;
  pod?: KubeObject;
}

/** One filter plugin's verdict on one node (framework.Status: code and reasons). */
export interface FilterVerdict {
  plugin: string;
  code: string;
  reasons?: string[];
}

/** One score plugin on one node: raw Score, after NormalizeScore, and × the plugin's weight. */
export interface PluginScore {
  plugin: string;
  weight: number;
  skipped?: boolean;
  raw: number;
  normalized: number;
  weighted: number;
}

export interface NodeExplanation {
  name: string;
  feasible: boolean;
  /** False for nodes past numFeasibleNodesToFind that this cycle would not have filtered. */
  examined: boolean;
  filters: FilterVerdict[];
  scores?: PluginScore[];
  totalScore?: number;
}

export interface SchedulingExplanationStatus {
  pod: string;
  numFeasibleNodesToFind: number;
  feasibleNodes: number;
  /** The node the scheduler would bind the pod to. */
  chosenNode?: string;
  /** kube-scheduler's FailedScheduling message when no node fits. */
  message?: string;
  nodes: NodeExplanation[];
}

/** The API object: status is filled in by the server. */
export interface SchedulingExplanation extends KubeObject {
  spec: SchedulingExplanationSpec;
  status?: SchedulingExplanationStatus;
}

const GROUP_KIND = { group: SCHEDULING_GROUP, kind: SCHEDULING_EXPLANATION_KIND };

/** The engine's explanation as the API status. */
export function explanationStatus(e: Explanation): SchedulingExplanationStatus {
  return {
    pod: e.pod,
    numFeasibleNodesToFind: e.numFeasibleNodesToFind,
    feasibleNodes: e.nodes.filter((n) => n.feasible).length,
    ...(e.chosen === undefined ? {} : { chosenNode: e.chosen }),
    ...(e.message === undefined ? {} : { message: e.message }),
    nodes: e.nodes.map((n) => ({
      name: n.node,
      feasible: n.feasible,
      examined: n.examined,
      filters: n.filters.map((f) => ({
        plugin: f.plugin,
        code: f.code,
        ...(f.reasons === undefined || f.reasons.length === 0 ? {} : { reasons: f.reasons }),
      })),
      ...(n.scores.length === 0
        ? {}
        : {
            scores: n.scores.map((s) => ({
              plugin: s.plugin,
              weight: s.weight,
              ...(s.skipped ? { skipped: true } : {}),
              raw: s.raw,
              normalized: s.normalized,
              weighted: s.weighted,
            })),
          }),
      ...(n.total === undefined ? {} : { totalScore: n.total }),
    })),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The request's spec, or the field errors that make it invalid. */
function readSpec(body: Record<string, unknown>): { spec: SchedulingExplanationSpec; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const path = FieldPath.root('spec');
  const raw = body.spec;
  if (!isRecord(raw)) {
    errs.push(required(path, 'namespace and podName, or pod'));
    return { spec: {}, errs };
  }
  const spec: SchedulingExplanationSpec = {};
  for (const field of ['namespace', 'podName'] as const) {
    const v = raw[field];
    if (v === undefined) continue;
    if (typeof v !== 'string') errs.push(invalid(path.child(field), v, 'must be a string'));
    else spec[field] = v;
  }
  if (raw.pod !== undefined) {
    if (!isRecord(raw.pod)) errs.push(invalid(path.child('pod'), raw.pod, 'must be a Pod object'));
    else spec.pod = raw.pod as KubeObject;
  }
  if (spec.pod !== undefined && spec.podName !== undefined) {
    errs.push(invalid(path.child('pod'), '', 'may not be set together with spec.podName'));
  } else if (spec.pod === undefined && (spec.podName ?? '') === '') {
    errs.push(required(path.child('podName'), 'or spec.pod'));
  }
  return { spec, errs };
}

/**
 * POST of a SchedulingExplanation: the request object with its status filled in (201, as
 * SubjectAccessReview answers); 405 for any other verb, 503 without a scheduler.
 */
export function handleSchedulingExplanation(
  explainer: SchedulingExplainer | undefined,
  method: string,
  name: string,
  bodyText: string,
): Response {
  if (method !== 'POST' || name !== '') throw newMethodNotAllowed();
  const body = parseJsonObject(bodyText, SCHEDULING_EXPLANATION_KIND);
  const { spec, errs } = readSpec(body);
  if (errs.length > 0) throw newInvalid(GROUP_KIND, '', errs);
  if (explainer === undefined) {
    throw newServiceUnavailable('no scheduler runs in this apiserver process to explain scheduling decisions');
  }
  const namespace = spec.namespace || 'default';
  let explanation: Explanation | undefined;
  if (spec.pod !== undefined) {
    const meta = isRecord(spec.pod.metadata) ? spec.pod.metadata : {};
    const pod = { ...spec.pod, metadata: { ...meta, namespace: meta.namespace ?? namespace } } as KubeObject;
    explanation = explainer.explain(pod);
  } else {
    const podName = spec.podName ?? '';
    explanation = explainer.explainPod(namespace, podName);
    if (explanation === undefined) throw newNotFound({ group: '', resource: 'pods' }, podName);
  }
  const metadata = isRecord(body.metadata) ? body.metadata : {};
  const answer: SchedulingExplanation = {
    apiVersion: `${SCHEDULING_GROUP}/${SCHEDULING_EXPLANATION_VERSION}`,
    kind: SCHEDULING_EXPLANATION_KIND,
    metadata: { ...metadata, creationTimestamp: null } as unknown as NonNullable<KubeObject['metadata']>,
    spec,
    status: explanationStatus(explanation),
  };
  return jsonResponse(201, answer);
}

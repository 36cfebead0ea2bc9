import { describe, expect, it } from 'vitest';
import { StatusError } from '../../../../api/status.js';
import type { Explanation } from '../../../../wasm/scheduler.js';
import { handleSchedulingExplanation, type SchedulingExplainer } from './scheduling-explanation.js';

const EXPLANATION: Explanation = {
  pod: 'default/web',
  numFeasibleNodesToFind: 100,
  chosen: 'n1',
  nodes: [
    {
      node: 'n1',
      feasible: true,
      examined: true,
      filters: [{ plugin: 'NodeResourcesFit', code: 'Success' }],
      scores: [{ plugin: 'TaintToleration', weight: 3, skipped: false, raw: 0, normalized: 100, weighted: 300 }],
      total: 300,
    },
    {
      node: 'n2',
      feasible: false,
      examined: true,
      filters: [{ plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: ['Insufficient cpu'] }],
      scores: [],
    },
  ],
};

const explainer: SchedulingExplainer & { asked: unknown[] } = {
  asked: [],
  explainPod(namespace, name) {
    this.asked.push([namespace, name]);
    return name === 'web' ? EXPLANATION : undefined;
  },
  explain(pod) {
    this.asked.push(pod);
    return EXPLANATION;
  },
};

const body = (spec: unknown) =>
  JSON.stringify({ apiVersion: 'scheduling.kubewasm.io/v1alpha1', kind: 'SchedulingExplanation', spec });

function statusOf(fn: () => unknown): { code: number; reason?: string; message?: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return err.status as { code: number; reason?: string; message?: string };
    throw err;
  }
  throw new Error('no error');
}

describe('handleSchedulingExplanation', () => {
  it('answers 201 with the request and the status the explainer gives, mapped to the API shape', async () => {
    const res = handleSchedulingExplanation(explainer, 'POST', '', body({ podName: 'web' }));
    expect(res.status).toBe(201);
    const out = (await res.json()) as Record<string, unknown>;
    expect(explainer.asked.at(-1)).toEqual(['default', 'web']);
    expect(out).toEqual({
      apiVersion: 'scheduling.kubewasm.io/v1alpha1',
      kind: 'SchedulingExplanation',
      metadata: { creationTimestamp: null },
      spec: { podName: 'web' },
      status: {
        pod: 'default/web',
        numFeasibleNodesToFind: 100,
        feasibleNodes: 1,
        chosenNode: 'n1',
        nodes: [
          {
            name: 'n1',
            feasible: true,
            examined: true,
            filters: [{ plugin: 'NodeResourcesFit', code: 'Success' }],
            scores: [{ plugin: 'TaintToleration', weight: 3, raw: 0, normalized: 100, weighted: 300 }],
            totalScore: 300,
          },
          {
            name: 'n2',
            feasible: false,
            examined: true,
            filters: [{ plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: ['Insufficient cpu'] }],
          },
        ],
      },
    });
  });

  it('explains an inline pod in spec.namespace', () => {
    handleSchedulingExplanation(explainer, 'POST', '', body({ namespace: 'team-a', pod: { metadata: { name: 'x' } } }));
    expect(explainer.asked.at(-1)).toEqual({ metadata: { name: 'x', namespace: 'team-a' } });
  });

  it('refuses other verbs, invalid specs, unknown pods, and answers 503 without a scheduler', () => {
    expect(statusOf(() => handleSchedulingExplanation(explainer, 'GET', '', ''))).toMatchObject({
      code: 405,
      reason: 'MethodNotAllowed',
      message: 'the server does not allow this method on the requested resource',
    });
    expect(statusOf(() => handleSchedulingExplanation(explainer, 'POST', '', body({})))).toMatchObject({
      code: 422,
      message: 'SchedulingExplanation.scheduling.kubewasm.io "" is invalid: spec.podName: Required value: or spec.pod',
    });
    expect(
      statusOf(() => handleSchedulingExplanation(explainer, 'POST', '', body({ podName: 'web', pod: {} }))),
    ).toMatchObject({ code: 422 });
    expect(statusOf(() => handleSchedulingExplanation(explainer, 'POST', '', body({ podName: 'nope' })))).toMatchObject(
      {
        code: 404,
        message: 'pods "nope" not found',
      },
    );
    expect(statusOf(() => handleSchedulingExplanation(undefined, 'POST', '', body({ podName: 'web' })))).toMatchObject({
      code: 503,
      reason: 'ServiceUnavailable',
    });
  });
});

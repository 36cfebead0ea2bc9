import { describe, expect, it } from 'vitest';
import { testServer } from '../../../testing/test-server.js';
import { hpaV1ToV2, hpaV2ToV1 } from './conversion.js';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = (n: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } },
});
const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
const V1 = '/apis/autoscaling/v1/namespaces/team-a/horizontalpodautoscalers';
const V2 = '/apis/autoscaling/v2/namespaces/team-a/horizontalpodautoscalers';

describe('HPA autoscaling/v1 ↔ v2 (pkg/apis/autoscaling/v1/conversion.go)', () => {
  it('targetCPUUtilizationPercentage is a cpu Utilization metric, and back', () => {
    const v1 = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
      status: { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 55 },
    };
    const v2 = hpaV1ToV2(v1);
    expect(v2).toEqual({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 5, metrics: [cpu(70)] },
      status: {
        currentReplicas: 3,
        desiredReplicas: 4,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 55 } } }],
      },
    });
    expect(hpaV2ToV1(v2)).toEqual(v1);
  });

  it('v2 → v1 keeps only the first cpu utilization metric; v1 → v2 takes the rest from the stored object', () => {
    const stored = {
      apiVersion: 'autoscaling/v2',
      spec: { maxReplicas: 5, metrics: [pods, cpu(60)], behavior: { scaleUp: { selectPolicy: 'Min' } } },
      status: { desiredReplicas: 1, conditions: [{ type: 'AbleToScale', status: 'True' }] },
    };
    const v1 = hpaV2ToV1(stored);
    expect(v1.spec).toEqual({ maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    expect(v1.status).toEqual({ currentReplicas: 0, desiredReplicas: 1 });
    const back = hpaV1ToV2({ ...v1, spec: { maxReplicas: 5, targetCPUUtilizationPercentage: 40 } }, stored);
    expect(back.spec).toEqual({
      maxReplicas: 5,
      metrics: [cpu(40), pods],
      behavior: { scaleUp: { selectPolicy: 'Min' } },
    });
    expect(back.status).toEqual({
      desiredReplicas: 1,
      currentMetrics: null,
      conditions: [{ type: 'AbleToScale', status: 'True' }],
    });
  });

  it('stores once: created through v1, read through v2 (with the v2 defaults), listed and watched through v1', async () => {
    const { json, call } = await testServer();
    const created = await json('POST', V1, { metadata: { name: 'h' }, spec: { scaleTargetRef: ref, maxReplicas: 4 } });
    expect(created.status).toBe(201);
    // No target in v1: stored without metrics, then v2's defaulting adds the cpu 80% metric.
    expect(created.body).toMatchObject({
      apiVersion: 'autoscaling/v1',
      spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 80 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
    const v2 = await json('GET', `${V2}/h`);
    expect(v2.body).toMatchObject({ apiVersion: 'autoscaling/v2', spec: { minReplicas: 1, metrics: [cpu(80)] } });
    expect(v2.body.status).toEqual({ currentMetrics: null, desiredReplicas: 0 });
    expect((v2.body.metadata as { resourceVersion: string }).resourceVersion).toBe(
      (created.body.metadata as { resourceVersion: string }).resourceVersion,
    );
    const list = await json('GET', V1);
    expect(list.body).toMatchObject({ kind: 'HorizontalPodAutoscalerList', apiVersion: 'autoscaling/v1' });
    expect((list.body.items as { apiVersion: string }[]).map((i) => i.apiVersion)).toEqual(['autoscaling/v1']);

    const res = await call('GET', `${V1}?watch=true&resourceVersion=0`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const chunk = await reader.read();
    await reader.cancel();
    const first = JSON.parse(new TextDecoder().decode(chunk.value).split('\n')[0] ?? '{}') as unknown;
    expect(first).toMatchObject({ type: 'ADDED', object: { apiVersion: 'autoscaling/v1', spec: { maxReplicas: 4 } } });
  });

  it('a v1 update and merge patch keep what only v2 can say; generation follows the spec', async () => {
    const { json } = await testServer();
    await json('POST', V2, {
      metadata: { name: 'h' },
      spec: {
        scaleTargetRef: ref,
        maxReplicas: 4,
        metrics: [cpu(50), pods],
        behavior: { scaleDown: { selectPolicy: 'Min' } },
      },
    });
    const v1 = await json('GET', `${V1}/h`);
    expect(v1.body.spec).toEqual({
      scaleTargetRef: ref,
      minReplicas: 1,
      maxReplicas: 4,
      targetCPUUtilizationPercentage: 50,
    });
    const put = await json('PUT', `${V1}/h`, {
      ...v1.body,
      spec: { ...(v1.body.spec as object), targetCPUUtilizationPercentage: 65 },
    });
    expect(put.status).toBe(200);
    expect(put.body.metadata).toMatchObject({ generation: 2 });
    const patched = await json(
      'PATCH',
      `${V1}/h`,
      { spec: { maxReplicas: 6 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(patched.body.spec).toMatchObject({ maxReplicas: 6, targetCPUUtilizationPercentage: 65 });
    const v2 = await json('GET', `${V2}/h`);
    expect(v2.body.spec).toMatchObject({ maxReplicas: 6, metrics: [cpu(65), pods] });
    expect((v2.body.spec as { behavior: { scaleDown: unknown } }).behavior.scaleDown).toMatchObject({
      selectPolicy: 'Min',
    });
    // An unchanged v1 PUT is no write at all.
    const same = await json('PUT', `${V1}/h`, patched.body);
    expect((same.body.metadata as { resourceVersion: string }).resourceVersion).toBe(
      (patched.body.metadata as { resourceVersion: string }).resourceVersion,
    );
  });

  it('the v1 status subresource writes the cpu utilization into v2 currentMetrics', async () => {
    const { json } = await testServer();
    await json('POST', V1, {
      metadata: { name: 'h' },
      spec: { scaleTargetRef: ref, maxReplicas: 4, targetCPUUtilizationPercentage: 50 },
    });
    const got = await json('GET', `${V1}/h`);
    const res = await json('PUT', `${V1}/h/status`, {
      ...got.body,
      status: { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 42 },
    });
    expect(res.status).toBe(200);
    const v2 = await json('GET', `${V2}/h`);
    expect(v2.body.status).toEqual({
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42 } } }],
    });
  });
});

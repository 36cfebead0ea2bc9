import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { testServer } from '../testing/test-server.js';
import { validateKind, validateKindUpdate } from './strategies.js';

const PODS = '/api/v1/namespaces/team-a/pods';
const DEPLOYS = '/apis/apps/v1/namespaces/team-a/deployments';
const SVCS = '/api/v1/namespaces/team-a/services';
const pod = (containers: unknown[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  spec: { containers },
});

describe('kind validation through the handler', () => {
  it('answers 422 Invalid with Kubernetes causes for a pod without an image, and stores nothing', async () => {
    const { json } = await testServer();
    const res = await json('POST', PODS, pod([{ name: 'c' }]));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Pod "p" is invalid: spec.containers[0].image: Required value',
      reason: 'Invalid',
      details: {
        name: 'p',
        kind: 'Pod',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers[0].image' }],
      },
      code: 422,
    });
    expect((await json('GET', `${PODS}/p`)).status).toBe(404);
  });

  it('lists every cause, in order, for a pod with several problems', async () => {
    const { json } = await testServer();
    const res = await json('POST', PODS, {
      metadata: { name: 'p' },
      spec: {
        containers: [
          { name: 'c', image: 'nginx', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
          { name: 'c', image: 'nginx' },
        ],
        restartPolicy: 'Sometimes',
      },
    });
    expect(res.status).toBe(422);
    expect((res.body.details as { causes: unknown[] }).causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "2": must be less than or equal to cpu limit of 1',
        field: 'spec.containers[0].resources.requests',
      },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "c"', field: 'spec.containers[1].name' },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        field: 'spec.restartPolicy',
      },
    ]);
    expect(res.body.message).toBe(
      'Pod "p" is invalid: [spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1, spec.containers[1].name: Duplicate value: "c", spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"]',
    );
  });

  it('rejects a deployment whose selector does not match its template, storing nothing', async () => {
    const { json } = await testServer();
    const res = await json('POST', DEPLOYS, {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      reason: 'Invalid',
      message:
        'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"db"}: `selector` does not match template `labels`',
      details: { name: 'web', group: 'apps', kind: 'Deployment' },
    });
    expect((await json('GET', `${DEPLOYS}/web`)).status).toBe(404);
  });

  it('requires names on the ports of a service with several ports', async () => {
    const { json } = await testServer();
    const res = await json('POST', SVCS, { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }, { port: 443 }] } });
    expect(res.status).toBe(422);
    expect((res.body.details as { causes: unknown[] }).causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[0].name' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[1].name' },
    ]);
    expect((await json('GET', `${SVCS}/web`)).status).toBe(404);
  });

  it('lets a pod update change the image only, and keeps the stored pod on a forbidden change', async () => {
    const { json } = await testServer();
    const created = await json('POST', PODS, pod([{ name: 'c', image: 'nginx:1' }]));
    expect(created.status).toBe(201);
    const image = await json('PATCH', `${PODS}/p`, '{"spec":{"containers":[{"name":"c","image":"nginx:2"}]}}', {
      'Content-Type': 'application/strategic-merge-patch+json',
    });
    expect(image.status).toBe(200);
    const forbidden = await json('PATCH', `${PODS}/p`, '{"spec":{"restartPolicy":"Never"}}', {
      'Content-Type': 'application/merge-patch+json',
    });
    expect(forbidden.status).toBe(422);
    const causes = (forbidden.body.details as { causes: { reason: string; field: string; message: string }[] }).causes;
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec' });
    expect(causes[0]?.message.split('\n')[0]).toBe(
      'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    const stored = await json('GET', `${PODS}/p`);
    expect(stored.body.spec).toMatchObject({ restartPolicy: 'Always', containers: [{ image: 'nginx:2' }] });
  });
});

describe('kind validation of the workload kinds through the handler', () => {
  const JOBS = '/apis/batch/v1/namespaces/team-a/jobs';
  const CRONJOBS = '/apis/batch/v1/namespaces/team-a/cronjobs';
  const job = (restartPolicy?: string) => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi' },
    spec: {
      template: { spec: { ...(restartPolicy ? { restartPolicy } : {}), containers: [{ name: 'pi', image: 'perl' }] } },
    },
  });

  it('accepts a job whose selector the strategy generated, and rejects the default restartPolicy', async () => {
    const { json } = await testServer();
    const bad = await json('POST', JOBS, job());
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      message:
        'Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      details: {
        causes: [
          {
            reason: 'FieldValueRequired',
            message: 'Required value: valid values: "OnFailure", "Never"',
            field: 'spec.template.spec.restartPolicy',
          },
        ],
      },
    });
    expect((await json('GET', `${JOBS}/pi`)).status).toBe(404);
    expect((await json('POST', JOBS, job('Never'))).status).toBe(201);
  });

  it('rejects a cronjob schedule that does not parse, with the cron parser text', async () => {
    const { json } = await testServer();
    const res = await json('POST', CRONJOBS, {
      metadata: { name: 'tick' },
      spec: {
        schedule: '61 * * * *',
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } },
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'CronJob.batch "tick" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61',
    );
    expect((await json('GET', `${CRONJOBS}/tick`)).status).toBe(404);
  });

  it("keeps a deployment's selector immutable on update and leaves the stored object alone", async () => {
    const { json } = await testServer();
    const created = await json('POST', DEPLOYS, {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', v: '1' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });
    expect(created.status).toBe(201);
    const res = await json('PATCH', `${DEPLOYS}/web`, '{"spec":{"selector":{"matchLabels":{"app":"web","v":"1"}}}}', {
      'Content-Type': 'application/merge-patch+json',
    });
    expect(res.status).toBe(422);
    expect((res.body.details as { causes: unknown[] }).causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "v":"1"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
        field: 'spec.selector',
      },
    ]);
    const stored = await json('GET', `${DEPLOYS}/web`);
    expect(stored.body.spec).toMatchObject({ selector: { matchLabels: { app: 'web' } } });
    expect((stored.body.metadata as { generation: number }).generation).toBe(1);
  });
});

describe('status writes', () => {
  it("checks a deployment's status counts on …/status and keeps the stored status", async () => {
    const { json } = await testServer();
    await json('POST', DEPLOYS, {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const bad = await json('PATCH', `${DEPLOYS}/web/status`, '{"status":{"replicas":1,"readyReplicas":2}}', merge);
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'Deployment.apps "web" is invalid: status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    );
    expect((await json('GET', `${DEPLOYS}/web`)).body.status).toEqual({});
    const ok = await json('PATCH', `${DEPLOYS}/web/status`, '{"status":{"replicas":1,"readyReplicas":1}}', merge);
    expect(ok.status).toBe(200);
  });
});

describe('dispatch by group and kind', () => {
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', uid: 'u1' },
    spec: { template: { spec: { containers: [{ name: 'c', image: 'perl' }] } } },
  } as unknown as KubeObject;

  it('validates kinds that are not served yet, keyed on group and kind', () => {
    const msgs = validateKind({ group: 'batch', kind: 'Job' }, job).map((e) => e.message);
    expect(msgs).toContain('spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
    expect(msgs).toContain('spec.selector: Required value');
  });

  it('ignores a kind of the same name in another group', () => {
    expect(validateKind({ group: 'example.com', kind: 'Job' }, job)).toEqual([]);
  });

  it('skips the spec checks on writes through /status and /finalize', () => {
    const bad = pod([{ name: 'c' }]) as unknown as KubeObject;
    expect(validateKindUpdate({ group: '', kind: 'Pod' }, bad, bad, 'status')).toEqual([]);
    expect(validateKindUpdate({ group: '', kind: 'Pod' }, bad, bad, 'finalize')).toEqual([]);
    expect(validateKindUpdate({ group: '', kind: 'Pod' }, bad, bad, 'main').map((e) => e.message)).toEqual([
      'spec.containers[0].image: Required value',
      'spec.containers[0].image: Required value',
    ]);
  });
});

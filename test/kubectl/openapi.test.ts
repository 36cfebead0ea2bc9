/**
 * The real kubectl (v1.32) against `kubewasm up` for what the OpenAPI v3 schemas and server-side
 * field validation give it: `kubectl explain` (fields, descriptions, enums, --recursive) from the
 * served documents, and create/apply with kubectl's default validation (fieldValidation=Strict),
 * with --validate=warn, and with a type error, printed as kubectl prints kube-apiserver's answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goQuote } from '../../ts/api/go-format.js';
import { hasKubectl, UpCluster } from '../testing/up.js';

const cluster = new UpCluster();

const deployment = (name: string, container: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: nginx
${container}`;

describe.skipIf(!hasKubectl)('kubectl explain and field validation against kubewasm up', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('explains a nested field with its Kubernetes description and fields', () => {
    const res = cluster.kubectl('explain', 'pods.spec.containers');
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain(
      [
        'KIND:       Pod',
        'VERSION:    v1',
        '',
        'FIELD: containers <[]Container>',
        '',
        '',
        'DESCRIPTION:',
        '    List of containers belonging to the pod. Containers cannot currently be',
        '    added or removed. There must be at least one container in a Pod. Cannot be',
        '    updated.',
        '    A single application container that you want to run within a pod.',
        '    ',
        'FIELDS:',
        '  args\t<[]string>',
      ].join('\n'),
    );
    expect(res.stdout).toContain('  image\t<string>\n    Container image name.');
    expect(res.stdout).toContain('  name\t<string> -required-\n');
    expect(res.stdout).toContain('  resources\t<ResourceRequirements>\n');
  });

  it('explains enums as a 1.32 apiserver (OpenAPIEnums on) serves them', () => {
    const res = cluster.kubectl('explain', 'deployment.spec.strategy.type');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('FIELD: type <string>\nENUM:\n    Recreate\n    RollingUpdate\n');
    expect(res.stdout).toContain(
      '    Possible enum values:\n     - `"Recreate"` Kill all existing pods before creating new ones.\n',
    );
  });

  it('explains recursively', () => {
    const res = cluster.kubectl('explain', 'deployment.spec', '--recursive');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain(
      [
        'GROUP:      apps',
        'KIND:       Deployment',
        'VERSION:    v1',
        '',
        'FIELD: spec <DeploymentSpec>',
        '',
        '',
        'DESCRIPTION:',
        '    Specification of the desired behavior of the Deployment.',
        '    DeploymentSpec is the specification of the desired behavior of the',
        '    Deployment.',
        '    ',
        'FIELDS:',
        '  minReadySeconds\t<integer>',
        '  paused\t<boolean>',
        '  progressDeadlineSeconds\t<integer>',
        '  replicas\t<integer>',
        '  revisionHistoryLimit\t<integer>',
        '  selector\t<LabelSelector> -required-',
        '    matchExpressions\t<[]LabelSelectorRequirement>',
        '      key\t<string> -required-',
        '      operator\t<string> -required-',
        '      values\t<[]string>',
        '    matchLabels\t<map[string]string>',
        '  strategy\t<DeploymentStrategy>',
        '    rollingUpdate\t<RollingUpdateDeployment>',
        '      maxSurge\t<IntOrString>',
        '      maxUnavailable\t<IntOrString>',
        '    type\t<string>',
        '    enum: Recreate, RollingUpdate',
        '  template\t<PodTemplateSpec> -required-',
      ].join('\n'),
    );
    expect(res.stdout).toContain('        imagePullPolicy\t<string>\n        enum: Always, IfNotPresent, Never\n');
  });

  it('rejects a nested unknown field on apply with kube-apiserver strict decoding error', () => {
    const res = cluster.kubectlWithInput(deployment('typo', '        imagee: nginx:1.27\n'), 'apply', '-f', '-');
    expect(res.status).not.toBe(0);
    expect(res.stderr).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be ' +
        'handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagee"\n',
    );
    expect(cluster.kubectl('get', 'deployment', 'typo').status).not.toBe(0);
  });

  it('warns about an unknown field with --validate=warn, creates the object and drops the field', () => {
    const manifest = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'warned' },
      data: { k: 'v' },
      extra: { x: 1 },
    });
    const res = cluster.kubectlWithInput(manifest, 'create', '--validate=warn', '-f', '-');
    expect(res.status).toBe(0);
    expect(res.stderr).toBe('Warning: unknown field "extra"\n');
    expect(res.stdout).toBe('configmap/warned created\n');
    expect(cluster.kubectl('get', 'configmap', 'warned', '-o', 'jsonpath={.data.k}|{.extra}').stdout).toBe('v|');
  });

  it('finds duplicate fields in the request body (kubectl drops them before sending)', async () => {
    const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"k":"v","k":"w"}}';
    const headers = { ...cluster.auth(), 'Content-Type': 'application/json' };
    const path = '/api/v1/namespaces/default/configmaps?fieldValidation=';
    const strict = await cluster.https('POST', `${path}Strict`, body, headers);
    expect(strict.status).toBe(400);
    expect(JSON.parse(strict.text)).toMatchObject({
      reason: 'BadRequest',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.k"',
    });
    const warn = await cluster.https('POST', `${path}Warn`, body, headers);
    expect(warn.status).toBe(201);
    expect(warn.headers.warning).toBe('299 - "duplicate field \\"data.k\\""');
    expect(JSON.parse(warn.text).data).toEqual({ k: 'w' });
  });

  it('answers a type mismatch with the Go decoding error, whatever the validation', () => {
    const res = cluster.kubectlWithInput(
      deployment('typed', '        image: nginx:1.27\n').replace('replicas: 1', 'replicas: two'),
      'create',
      '--validate=false',
      '-f',
      '-',
    );
    expect(res.status).not.toBe(0);
    expect(res.stderr).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be ' +
        'handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas ' +
        'of type int32\n',
    );
  });

  it('keeps apply of a valid manifest working, then applies a change to it', () => {
    const first = cluster.kubectlWithInput(deployment('web', '        image: nginx:1.27\n'), 'apply', '-f', '-');
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe('deployment.apps/web created\n');
    const second = cluster.kubectlWithInput(deployment('web', '        image: nginx:1.28\n'), 'apply', '-f', '-');
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe('deployment.apps/web configured\n');
    const image = cluster.kubectl(
      'get',
      'deployment',
      'web',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    );
    expect(image.stdout).toBe('nginx:1.28');
  });

  it('rejects a nested unknown field when apply patches an existing object (422 on the patch)', () => {
    const res = cluster.kubectlWithInput(
      deployment('web', '        image: nginx:1.28\n        foo: 1\n'),
      'apply',
      '-f',
      '-',
    );
    expect(res.status).not.toBe(0);
    // kube-apiserver prints the strategic merge patch kubectl sent as a Go map (%+v), quoted.
    const lastApplied = `${JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { annotations: {}, name: 'web', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ foo: 1, image: 'nginx:1.28', name: 'nginx' }] },
        },
      },
    })}\n`;
    const patchMap =
      `map[metadata:map[annotations:map[kubectl.kubernetes.io/last-applied-configuration:${lastApplied}]] ` +
      'spec:map[template:map[spec:map[$setElementOrder/containers:[map[name:nginx]] containers:[map[foo:1 name:nginx]]]]]]';
    expect(res.stderr).toBe(
      `The request is invalid: patch: Invalid value: ${goQuote(patchMap)}: strict decoding error: ` +
        'unknown field "spec.template.spec.containers[0].foo"\n',
    );
  });
});

/**
 * The real kubectl (v1.32) against `kubewasm up` with a CustomResourceDefinition: created from
 * YAML (schema, status and scale subresources, printer columns), `kubectl wait --for
 * condition=established`, instances created and listed with the printer columns, `kubectl get -w`
 * seeing a change, `kubectl explain`, `kubectl scale`, a schema-breaking instance refused with
 * kubectl's exact stderr, and `kubectl delete crd` taking the instances with it.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, KUBECTL, UpCluster } from '../testing/up.js';

const cluster = new UpCluster();
const kubectl = (...args: string[]) => cluster.kubectl(...args);
const create = (yaml: string) => cluster.kubectlWithInput(yaml, 'create', '-f', '-');

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: The schedule and image of the cron job.
            properties:
              cronSpec:
                type: string
                description: The cron schedule.
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
              replicas:
                type: integer
                default: 1
          status:
            type: object
            properties:
              replicas:
                type: integer
              labelSelector:
                type: string
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
        labelSelectorPath: .status.labelSelector
    additionalPrinterColumns:
    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
`;

const cronTab = (name: string, spec: string) => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
${spec}`;

describe.skipIf(!hasKubectl)('kubectl with a CustomResourceDefinition against kubewasm up', () => {
  beforeAll(async () => {
    await cluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster.dispose();
  });

  it('creates the CRD and waits for it to be established', () => {
    expect(create(CRD)).toMatchObject({
      status: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n',
    });
    expect(
      kubectl('wait', '--for', 'condition=established', '--timeout=30s', 'crd/crontabs.stable.example.com'),
    ).toMatchObject({
      status: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n',
    });
    const crds = kubectl('get', 'crd');
    expect(crds.stdout).toMatch(
      /^NAME\s+CREATED AT\ncrontabs\.stable\.example\.com\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/,
    );
  });

  it('kubectl apply of a CRD, twice with a change (a strategic merge patch of the CRD)', () => {
    const gadgets = (column: string) =>
      CRD.replaceAll('crontabs', 'gadgets')
        .replaceAll('crontab', 'gadget')
        .replaceAll('CronTab', 'Gadget')
        .replace('shortNames: [ct]', 'shortNames: [gd]')
        .replace('name: Spec\n', `name: ${column}\n`);
    const apply = (yaml: string) => cluster.kubectlWithInput(yaml, 'apply', '-f', '-');
    expect(apply(gadgets('Spec'))).toMatchObject({
      status: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io/gadgets.stable.example.com created\n',
    });
    expect(apply(gadgets('Schedule'))).toMatchObject({
      status: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io/gadgets.stable.example.com configured\n',
    });
    const columns = kubectl(
      'get',
      'crd',
      'gadgets.stable.example.com',
      '-o',
      'jsonpath={.spec.versions[0].additionalPrinterColumns[0].name} {.metadata.generation}',
    );
    expect(columns.stdout).toBe('Schedule 2');
    expect(kubectl('delete', 'crd', 'gadgets.stable.example.com').status).toBe(0);
  });

  it('creates instances and lists them with the printer columns', () => {
    expect(create(cronTab('my-cron', '  cronSpec: "* * * * */5"\n  image: my-cron-image\n'))).toMatchObject({
      status: 0,
      stdout: 'crontab.stable.example.com/my-cron created\n',
    });
    const got = kubectl('get', 'crontabs');
    expect(got.status).toBe(0);
    expect(got.stdout).toMatch(/^NAME\s+SPEC\s+REPLICAS\s+AGE\nmy-cron\s+\* \* \* \* \*\/5\s+1\s+\d+s\n$/);
    // Discovery: the CRD kind and the custom resource with its short name.
    const resources = kubectl('api-resources');
    expect(resources.stdout).toMatch(
      /^customresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1\s+false\s+CustomResourceDefinition$/m,
    );
    expect(resources.stdout).toMatch(/^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab$/m);
    // The short name and the defaulted field.
    expect(kubectl('get', 'ct', 'my-cron', '-o', 'jsonpath={.spec.replicas}').stdout).toBe('1');
  });

  it('kubectl get -w sees a change', async () => {
    const child = spawn(KUBECTL, ['get', 'crontabs', '-w', '--output-watch-events'], {
      env: { ...process.env, KUBECONFIG: cluster.kubeconfig, HOME: cluster.root },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    try {
      for (let i = 0; i < 100 && !out.includes('my-cron'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(
        kubectl('patch', 'crontab', 'my-cron', '--type=merge', '-p', '{"spec":{"cronSpec":"*/2 * * * *"}}').status,
      ).toBe(0);
      for (let i = 0; i < 100 && !out.includes('MODIFIED'); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(/MODIFIED\s+my-cron\s+\*\/2 \* \* \* \*\s+1\s+\d+s/);
    } finally {
      child.kill();
    }
  });

  it('kubectl apply creates, then patches a custom resource (a JSON merge patch)', () => {
    const apply = (image: string) =>
      cluster.kubectlWithInput(
        cronTab('applied', `  cronSpec: "* * * * */5"\n  image: ${image}\n`),
        'apply',
        '-f',
        '-',
      );
    expect(apply('one')).toMatchObject({ status: 0, stdout: 'crontab.stable.example.com/applied created\n' });
    expect(apply('two')).toMatchObject({ status: 0, stdout: 'crontab.stable.example.com/applied configured\n' });
    expect(kubectl('get', 'crontab', 'applied', '-o', 'jsonpath={.spec.image}').stdout).toBe('two');
    expect(kubectl('delete', 'crontab', 'applied').status).toBe(0);
  });

  it('kubectl explain reads the published schema', () => {
    const res = kubectl('explain', 'crontab.spec');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('GROUP:      stable.example.com\nKIND:       CronTab\nVERSION:    v1\n');
    expect(res.stdout).toContain('The schedule and image of the cron job.');
    expect(res.stdout).toContain('cronSpec\t<string>\n    The cron schedule.');
  });

  it('kubectl scale writes specReplicasPath', () => {
    expect(kubectl('scale', 'crontab', 'my-cron', '--replicas=5')).toMatchObject({
      status: 0,
      stdout: 'crontab.stable.example.com/my-cron scaled\n',
    });
    expect(kubectl('get', 'crontab', 'my-cron', '-o', 'jsonpath={.spec.replicas}').stdout).toBe('5');
  });

  it('an instance that breaks the schema is refused with kubectl exact stderr', () => {
    const res = create(cronTab('bad', '  cronSpec: "* * * * */5"\n  image: 5\n'));
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(
      'The CronTab "bad" is invalid: spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer"\n',
    );
    // An unknown field: kubectl asks for fieldValidation=Strict.
    const unknown = create(cronTab('bad', '  cronSpec: "* * * * */5"\n  colour: red\n'));
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe(
      'Error from server (BadRequest): error when creating "STDIN": CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.colour"\n',
    );
    expect(kubectl('get', 'crontab', 'bad').stderr).toBe(
      'Error from server (NotFound): crontabs.stable.example.com "bad" not found\n',
    );
  });

  it('deleting a namespace deletes its custom resources', () => {
    expect(kubectl('create', 'namespace', 'crons').status).toBe(0);
    expect(
      cluster.kubectlWithInput(cronTab('ns-cron', '  cronSpec: "* * * * */5"\n'), 'create', '-n', 'crons', '-f', '-')
        .status,
    ).toBe(0);
    expect(kubectl('delete', 'namespace', 'crons', '--timeout=30s')).toMatchObject({
      status: 0,
      stdout: 'namespace "crons" deleted\n',
    });
    const left = kubectl('get', 'crontabs', '-A', '-o', 'name');
    expect(left.stdout).toBe('crontab.stable.example.com/my-cron\n');
  }, 30_000);

  it('kubectl delete crd deletes the instances', () => {
    expect(kubectl('delete', 'crd', 'crontabs.stable.example.com')).toMatchObject({
      status: 0,
      stdout: 'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted\n',
    });
    expect(kubectl('get', 'crd').stderr).toBe('No resources found\n');
    const raw = cluster.kubectl('get', '--raw', '/apis/stable.example.com/v1/namespaces/default/crontabs');
    expect(raw.status).toBe(1);
    expect(raw.stderr).toBe('Error from server (NotFound): the server could not find the requested resource\n');
    // The same CRD again: the instances are gone, not merely unserved.
    expect(create(CRD).status).toBe(0);
    expect(
      kubectl('wait', '--for', 'condition=established', '--timeout=30s', 'crd/crontabs.stable.example.com').status,
    ).toBe(0);
    expect(kubectl('get', 'crontabs')).toMatchObject({
      status: 0,
      stdout: '',
      stderr: 'No resources found in default namespace.\n',
    });
  });
});

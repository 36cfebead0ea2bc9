/**
 * Real objects against the generated types: what kube-apiserver v1.32 returns for a pod made by
 * `kubectl run`, a Deployment, a Node with its status, Services, a CRD and a 404 Status. Each is
 * written `satisfies` its type, so `npx tsc --noEmit` fails when a type is too strict for the wire
 * or names a field wrongly; `@ts-expect-error` lines fail it when a type is too loose. At run
 * time each fixture is walked against the OpenAPI schema, so the fixtures themselves stay true to
 * Kubernetes (no property the schema lacks, every required one present).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { OPENAPI } from '../../../scripts/gen-api-types.mjs';
import type { KubeObject, Status } from '../meta.js';
import type { CustomResourceDefinition } from './apiextensions/v1.js';
import type { Deployment } from './apps/v1.js';
import type {
  Container,
  HTTPGetAction,
  Node,
  Pod,
  PodSpec,
  Probe,
  ResourceList,
  ResourceRequirements,
  RestartPolicy,
  Service,
  ServicePort,
  TCPSocketAction,
} from './core/v1.js';
import type { IntOrString } from './intstr.js';
import type { ObjectMeta, Time } from './meta/v1.js';
import type { Quantity } from './resource.js';

const pod = {
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: {
    name: 'nginx',
    namespace: 'default',
    uid: '0b5a8fd4-2f6b-4a53-9c36-6a9c1c1c0a5e',
    resourceVersion: '1206',
    creationTimestamp: '2025-02-14T10:12:03Z',
    labels: { run: 'nginx' },
    managedFields: [
      {
        manager: 'kubectl-run',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2025-02-14T10:12:03Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:imagePullPolicy': {},
                'f:name': {},
                'f:resources': {},
                'f:terminationMessagePath': {},
                'f:terminationMessagePolicy': {},
              },
            },
            'f:dnsPolicy': {},
            'f:enableServiceLinks': {},
            'f:restartPolicy': {},
            'f:schedulerName': {},
            'f:securityContext': {},
            'f:terminationGracePeriodSeconds': {},
          },
        },
      },
      {
        manager: 'kubelet',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2025-02-14T10:12:09Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:conditions': {}, 'f:phase': {}, 'f:podIP': {} } },
        subresource: 'status',
      },
    ],
  },
  spec: {
    volumes: [
      {
        name: 'kube-api-access-7qz2w',
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
              },
            },
          ],
          defaultMode: 420,
        },
      },
    ],
    containers: [
      {
        name: 'nginx',
        image: 'nginx',
        resources: {},
        volumeMounts: [
          {
            name: 'kube-api-access-7qz2w',
            readOnly: true,
            mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
          },
        ],
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'Always',
      },
    ],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    serviceAccountName: 'default',
    serviceAccount: 'default',
    nodeName: 'kind-control-plane',
    securityContext: {},
    schedulerName: 'default-scheduler',
    tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
    priority: 0,
    enableServiceLinks: true,
    preemptionPolicy: 'PreemptLowerPriority',
  },
  status: {
    phase: 'Running',
    conditions: [
      {
        type: 'PodReadyToStartContainers',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: '2025-02-14T10:12:09Z',
      },
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-02-14T10:12:03Z' },
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-02-14T10:12:09Z' },
      { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-02-14T10:12:09Z' },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-02-14T10:12:03Z' },
    ],
    hostIP: '172.18.0.2',
    hostIPs: [{ ip: '172.18.0.2' }],
    podIP: '10.244.0.5',
    podIPs: [{ ip: '10.244.0.5' }],
    startTime: '2025-02-14T10:12:03Z',
    containerStatuses: [
      {
        name: 'nginx',
        state: { running: { startedAt: '2025-02-14T10:12:08Z' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'docker.io/library/nginx:latest',
        imageID: 'docker.io/library/nginx@sha256:91734281c0ebfc6f1aea979cffeed5079cfe786228a71cc6f1f46a228cde6e34',
        containerID: 'containerd://3f2b7c1e9a0d4b5c6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d',
        started: true,
        volumeMounts: [
          {
            name: 'kube-api-access-7qz2w',
            mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
            readOnly: true,
            recursiveReadOnly: 'Disabled',
          },
        ],
      },
    ],
    qosClass: 'BestEffort',
  },
} satisfies Pod;

const deployment = {
  kind: 'Deployment',
  apiVersion: 'apps/v1',
  metadata: {
    name: 'web',
    namespace: 'default',
    uid: '5d0b7e8a-1c2f-4e3d-9a8b-7c6d5e4f3a2b',
    resourceVersion: '2210',
    generation: 1,
    creationTimestamp: '2025-02-14T10:20:00Z',
    labels: { app: 'web' },
    annotations: { 'deployment.kubernetes.io/revision': '1' },
  },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '250m', memory: '64Mi' } },
            readinessProbe: {
              httpGet: { path: '/', port: 'http', scheme: 'HTTP' },
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
              timeoutSeconds: 1,
            },
            livenessProbe: { tcpSocket: { port: 80 }, initialDelaySeconds: 5 },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        securityContext: {},
        schedulerName: 'default-scheduler',
      },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
  },
  status: {
    observedGeneration: 1,
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 3,
    availableReplicas: 3,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: '2025-02-14T10:20:10Z',
        lastTransitionTime: '2025-02-14T10:20:10Z',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: '2025-02-14T10:20:10Z',
        lastTransitionTime: '2025-02-14T10:20:00Z',
        reason: 'NewReplicaSetAvailable',
        message: 'ReplicaSet "web-7d9c6b8f5d" has successfully progressed.',
      },
    ],
  },
} satisfies Deployment;

const node = {
  kind: 'Node',
  apiVersion: 'v1',
  metadata: {
    name: 'kind-control-plane',
    uid: 'c3a1f0e2-7b4d-4c5e-8f9a-0b1c2d3e4f5a',
    resourceVersion: '3105',
    creationTimestamp: '2025-02-14T10:00:12Z',
    labels: {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'kind-control-plane',
      'kubernetes.io/os': 'linux',
      'node-role.kubernetes.io/control-plane': '',
    },
    annotations: {
      'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
      'node.alpha.kubernetes.io/ttl': '0',
      'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    },
  },
  spec: {
    podCIDR: '10.244.0.0/24',
    podCIDRs: ['10.244.0.0/24'],
    providerID: 'kind://docker/kind/kind-control-plane',
    taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
  },
  status: {
    capacity: {
      cpu: '8',
      'ephemeral-storage': '102625208Ki',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: '32847332Ki',
      pods: '110',
    },
    allocatable: {
      cpu: '8',
      'ephemeral-storage': '102625208Ki',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: '32847332Ki',
      pods: '110',
    },
    conditions: [
      {
        type: 'MemoryPressure',
        status: 'False',
        lastHeartbeatTime: '2025-02-14T10:30:05Z',
        lastTransitionTime: '2025-02-14T10:00:10Z',
        reason: 'KubeletHasSufficientMemory',
        message: 'kubelet has sufficient memory available',
      },
      {
        type: 'Ready',
        status: 'True',
        lastHeartbeatTime: '2025-02-14T10:30:05Z',
        lastTransitionTime: '2025-02-14T10:00:35Z',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
      },
    ],
    addresses: [
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'kind-control-plane' },
    ],
    // The Port key is capitalised on the wire (core/v1 DaemonEndpoint: "not properly in quotes in earlier releases").
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: '5f2b0c7e3a9d4f1e8b6c2a0d9e7f5c3b',
      systemUUID: '5f2b0c7e-3a9d-4f1e-8b6c-2a0d9e7f5c3b',
      bootID: 'b7a9c1d3-e5f7-4a2b-9c4d-6e8f0a2b4c6d',
      kernelVersion: '6.8.0-51-generic',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: 'containerd://2.0.2',
      kubeletVersion: 'v1.32.2',
      kubeProxyVersion: 'v1.32.2',
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images: [
      {
        names: ['registry.k8s.io/etcd:3.5.16-0'],
        sizeBytes: 57680541,
      },
    ],
  },
} satisfies Node;

const services = [
  {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      uid: '8e2c4a6b-0d1f-4e3a-9b5c-7d9e1f3a5b7c',
      resourceVersion: '198',
      creationTimestamp: '2025-02-14T10:00:14Z',
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }],
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    },
    status: { loadBalancer: {} },
  },
  {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080 }],
      selector: { app: 'web' },
      type: 'NodePort',
      externalTrafficPolicy: 'Cluster',
    },
  },
] satisfies Service[];

const crd = {
  kind: 'CustomResourceDefinition',
  apiVersion: 'apiextensions.k8s.io/v1',
  metadata: { name: 'crontabs.stable.example.com', creationTimestamp: '2025-02-14T10:40:00Z', generation: 1 },
  spec: {
    group: 'stable.example.com',
    names: { plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                  image: { type: 'string' },
                  replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
                },
                required: ['cronSpec'],
                'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'at most 10' }],
              },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }],
      },
    ],
    conversion: { strategy: 'None' },
  },
  status: {
    conditions: [
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: '2025-02-14T10:40:00Z',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    acceptedNames: {
      plural: 'crontabs',
      singular: 'crontab',
      shortNames: ['ct'],
      kind: 'CronTab',
      listKind: 'CronTabList',
    },
    storedVersions: ['v1'],
  },
} satisfies CustomResourceDefinition;

const notFound = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'pods "nginx" not found',
  reason: 'NotFound',
  details: { name: 'nginx', kind: 'pods' },
  code: 404,
} satisfies Status;

describe('the generated types', () => {
  it('hold the tricky fields as the Go types declare them', () => {
    // PodSpec.Containers `json:"containers"`, Container.Name `json:"name"` (k8s.io/api core/v1 types.go).
    expectTypeOf<PodSpec['containers']>().toEqualTypeOf<Container[]>();
    expectTypeOf<Container['name']>().toEqualTypeOf<string>();
    // ObjectMeta: every field omitempty; CreationTimestamp a non-pointer metav1.Time, null when zero.
    expectTypeOf<Record<never, never>>().toExtend<ObjectMeta>();
    expectTypeOf<ObjectMeta['creationTimestamp']>().toEqualTypeOf<Time | null | undefined>();
    expectTypeOf<ObjectMeta['deletionTimestamp']>().toEqualTypeOf<Time | undefined>();
    // Probe ports and Service targetPort are intstr.IntOrString.
    expectTypeOf<IntOrString>().toEqualTypeOf<number | string>();
    expectTypeOf<HTTPGetAction['port']>().toEqualTypeOf<IntOrString>();
    expectTypeOf<TCPSocketAction['port']>().toEqualTypeOf<IntOrString>();
    expectTypeOf<NonNullable<Probe['httpGet']>>().toEqualTypeOf<HTTPGetAction>();
    expectTypeOf<ServicePort['targetPort']>().toEqualTypeOf<IntOrString | undefined>();
    // ResourceRequirements: ResourceList maps of resource.Quantity.
    expectTypeOf<ResourceList>().toEqualTypeOf<Record<string, Quantity>>();
    expectTypeOf<ResourceRequirements['limits']>().toEqualTypeOf<ResourceList | undefined>();
    expectTypeOf<RestartPolicy>().toEqualTypeOf<'Always' | 'Never' | 'OnFailure'>();
    expectTypeOf<Pod['kind']>().toEqualTypeOf<'Pod' | undefined>();
    expectTypeOf<Deployment['apiVersion']>().toEqualTypeOf<'apps/v1' | undefined>();
  });

  it('let every kind pass as a KubeObject', () => {
    expectTypeOf<Pod>().toExtend<KubeObject>();
    expectTypeOf<Deployment>().toExtend<KubeObject>();
    expectTypeOf<Node>().toExtend<KubeObject>();
    expectTypeOf<Service>().toExtend<KubeObject>();
    expectTypeOf<CustomResourceDefinition>().toExtend<KubeObject>();
    const objects: KubeObject[] = [pod, deployment, node, ...services, crd];
    expect(objects.map((o) => o.kind)).toEqual([
      'Pod',
      'Deployment',
      'Node',
      'Service',
      'Service',
      'CustomResourceDefinition',
    ]);
  });

  it('refuse what the wire never carries', () => {
    // @ts-expect-error a container needs a name
    const nameless: Container = { image: 'nginx' };
    // @ts-expect-error RestartPolicy is Always, OnFailure or Never
    const sometimes: PodSpec = { containers: [], restartPolicy: 'Sometimes' };
    // @ts-expect-error a Pod's kind is Pod
    const wrongKind: Pod = { kind: 'Service' };
    // @ts-expect-error a quantity is a string
    const numeric: ResourceList = { cpu: 1 };
    // @ts-expect-error pod spec fields are checked: `container` is no field
    const typo: PodSpec = { containers: [], container: [] };
    expect([nameless, sometimes, wrongKind, numeric, typo]).toHaveLength(5);
  });
});

// ---------------------------------------------------------------------------------------------
// The fixtures against the OpenAPI schemas, at run time.

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  $ref?: string;
  enum?: string[];
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const schemas: Record<string, Schema> = JSON.parse(readFileSync(join(ROOT, OPENAPI), 'utf8')).schemas;
const resolve = (s: Schema): Schema => {
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0]?.$ref : undefined);
  return ref === undefined ? s : resolve(schemas[ref.slice(ref.lastIndexOf('/') + 1)] ?? {});
};

/** The places where `value` breaks `schema`: unknown or missing properties, values outside an enum. */
function problems(value: unknown, schema: Schema, path: string): string[] {
  const s = resolve(schema);
  if (value === null || value === undefined) return [];
  if (s.enum && !s.enum.includes(value as string)) return [`${path}: ${String(value)} is not one of ${s.enum}`];
  if (Array.isArray(value))
    return s.items ? value.flatMap((v, i) => problems(v, s.items as Schema, `${path}[${i}]`)) : [];
  if (typeof value !== 'object') return [];
  const obj = value as Record<string, unknown>;
  if (s.properties) {
    const out = (s.required ?? []).filter((r) => !(r in obj)).map((r) => `${path}.${r}: required`);
    for (const [k, v] of Object.entries(obj)) {
      const p = s.properties[k];
      out.push(...(p === undefined ? [`${path}.${k}: not in the schema`] : problems(v, p, `${path}.${k}`)));
    }
    return out;
  }
  if (typeof s.additionalProperties === 'object') {
    const values = s.additionalProperties;
    return Object.entries(obj).flatMap(([k, v]) => problems(v, values, `${path}[${k}]`));
  }
  return [];
}

describe('the fixtures', () => {
  it.each([
    ['io.k8s.api.core.v1.Pod', pod],
    ['io.k8s.api.apps.v1.Deployment', deployment],
    ['io.k8s.api.core.v1.Node', node],
    ['io.k8s.api.core.v1.Service', services[0]],
    ['io.k8s.api.core.v1.Service', services[1]],
    ['io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', crd],
    ['io.k8s.apimachinery.pkg.apis.meta.v1.Status', notFound],
  ])('%s is true to the schema', (name, object) => {
    expect(problems(object, { $ref: `#/components/schemas/${name}` }, '')).toEqual([]);
  });

  it('are caught when they stray from the schema', () => {
    const stray = { ...pod, spec: { ...pod.spec, restartPolicy: 'Sometimes', container: [] } };
    expect(problems(stray, { $ref: '#/components/schemas/io.k8s.api.core.v1.Pod' }, '')).toEqual([
      '.spec.restartPolicy: Sometimes is not one of Always,Never,OnFailure',
      '.spec.container: not in the schema',
    ]);
  });
});

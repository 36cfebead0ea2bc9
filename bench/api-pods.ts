/**
 * The pods `kubewasm bench api` sends and stores. A realistic pod, not a minimal one: what a
 * ReplicaSet controller creates once admission has run (owner reference, pod-template-hash label,
 * the ServiceAccount admission's kube-api-access projected volume and mount, the
 * DefaultTolerationSeconds admission's two tolerations), ≈2 KB of JSON. The pods a 150,000-pod
 * LIST returns are the same pods scheduled and running (nodeName, status), ≈2.8 KB as stored.
 */

/** Placeholders the body builders substitute; they cannot occur in the rest of the template. */
const NAME = '@@NAME@@';
const GEN = '@@GEN@@';

function podObject(namespace: string, name: string, generation: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      generateName: 'web-7d4b9c8f5d-',
      namespace,
      labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '7d4b9c8f5d' },
      annotations: { 'bench.kubewasm.io/generation': generation },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'web-7d4b9c8f5d',
          uid: '5f1c8a7e-3b2d-4c6e-9a1f-0e8d7c6b5a49',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.k8s.io/nginx-slim:0.27',
          ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
            { name: 'LOG_LEVEL', value: 'info' },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
          readinessProbe: {
            httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
            periodSeconds: 10,
            timeoutSeconds: 1,
            successThreshold: 1,
            failureThreshold: 3,
          },
          volumeMounts: [
            {
              name: 'kube-api-access-7xk2p',
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              readOnly: true,
            },
          ],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      volumes: [
        {
          name: 'kube-api-access-7xk2p',
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              {
                downwardAPI: {
                  items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
                },
              },
            ],
          },
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
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
  };
}

/**
 * A fast builder of pod request bodies (create and update) in `namespace`: the template is
 * serialized once, and each body is string concatenation, so the client costs little next to
 * the server. `podBodies('bench')('web-1', '0')`.
 */
export function podBodies(namespace: string): (name: string, generation: string) => string {
  const text = JSON.stringify(podObject(namespace, NAME, GEN));
  const [a = '', rest = ''] = text.split(NAME);
  const [b = '', c = ''] = rest.split(GEN);
  return (name, generation) => a + name + b + generation + c;
}

/** The stored JSON of pod number `i`, running on one of 5,000 nodes, as the apiserver keeps it. */
export function runningPodStored(namespace: string, name: string, i: number): string {
  const pod = podObject(namespace, name, '1');
  const meta = pod.metadata as Record<string, unknown>;
  meta.uid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
  meta.creationTimestamp = '2025-01-01T00:00:00Z';
  const node = `node-${i % 5000}`;
  const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  (pod.spec as Record<string, unknown>).nodeName = node;
  const condition = (type: string) => ({
    type,
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: '2025-01-01T00:00:05Z',
  });
  pod.status = {
    phase: 'Running',
    conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map(condition),
    hostIP: `192.168.${(i % 5000) >> 8}.${i % 256}`,
    hostIPs: [{ ip: `192.168.${(i % 5000) >> 8}.${i % 256}` }],
    podIP: ip,
    podIPs: [{ ip }],
    startTime: '2025-01-01T00:00:01Z',
    containerStatuses: [
      {
        name: 'web',
        state: { running: { startedAt: '2025-01-01T00:00:04Z' } },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'registry.k8s.io/nginx-slim:0.27',
        imageID: 'registry.k8s.io/nginx-slim@sha256:6ef9c4d3bdd5a9e0b5f3c2d1f7e4a8b6c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e',
        containerID: `containerd://${i.toString(16).padStart(64, '0')}`,
        started: true,
      },
    ],
    qosClass: 'Burstable',
  };
  return JSON.stringify(pod);
}

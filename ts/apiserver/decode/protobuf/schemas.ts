/**
 * Field numbers of the Kubernetes messages this server can read from protobuf request bodies
 * (k8s.io/api/core/v1/generated.proto, k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto,
 * v0.32; numbers checked against k8s.io/api's generated.proto, pointer-ness against types.go and
 * against the bodies kubectl 1.32 sends). kubectl's typed `create namespace|configmap|secret|
 * serviceaccount|deployment|service|job|cronjob|priorityclass|role|rolebinding|clusterrole|
 * clusterrolebinding|poddisruptionbudget|quota` and `kubectl autoscale` send protobuf only (../shared/reference/api.md §0.4),
 * with the batch/v1, scheduling/v1, rbac/v1, autoscaling/v1 and policy/v1 generated.proto numbers. Only the
 * fields those commands can set are described; a body with any other field answers 415.
 */

/**
 * Scalar kinds: `string`, `int`, `bool` are Go value fields with `omitempty` (gogo-protobuf writes
 * them even when empty, JSON would omit the zero); `optstring`, `optint`, `optbool` are Go
 * pointers (written only when set, so a zero is a real value and kept).
 */
export type FieldType =
  | 'string'
  | 'optstring'
  | 'int'
  | 'optint'
  | 'bool'
  | 'optbool'
  | 'bytes'
  | 'time'
  | 'intOrString'
  | 'map<string,string>'
  | 'map<string,bytes>'
  | 'map<string,quantity>'
  | { message: string };

export interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: boolean;
}

export type MessageSchema = Record<number, FieldSpec>;

const s = (name: string): FieldSpec => ({ name, type: 'string' });
const m = (name: string, message: string, repeated = false): FieldSpec =>
  repeated ? { name, type: { message }, repeated } : { name, type: { message } };
const t = (name: string, type: FieldType): FieldSpec => ({ name, type });

export const MESSAGES: Record<string, MessageSchema> = {
  ObjectMeta: {
    1: s('name'),
    2: s('generateName'),
    3: s('namespace'),
    4: s('selfLink'),
    5: s('uid'),
    6: s('resourceVersion'),
    7: { name: 'generation', type: 'int' },
    8: { name: 'creationTimestamp', type: 'time' },
    9: { name: 'deletionTimestamp', type: 'time' },
    10: { name: 'deletionGracePeriodSeconds', type: 'optint' },
    11: { name: 'labels', type: 'map<string,string>' },
    12: { name: 'annotations', type: 'map<string,string>' },
    13: { name: 'ownerReferences', type: { message: 'OwnerReference' }, repeated: true },
    14: { name: 'finalizers', type: 'string', repeated: true },
  },
  OwnerReference: {
    1: s('kind'),
    3: s('name'),
    4: s('uid'),
    5: s('apiVersion'),
    6: { name: 'controller', type: 'optbool' },
    7: { name: 'blockOwnerDeletion', type: 'optbool' },
  },
  ObjectReference: {
    1: s('kind'),
    2: s('namespace'),
    3: s('name'),
    4: s('uid'),
    5: s('apiVersion'),
    6: s('resourceVersion'),
    7: s('fieldPath'),
  },
  LocalObjectReference: { 1: s('name') },
  Namespace: {
    1: { name: 'metadata', type: { message: 'ObjectMeta' } },
    2: { name: 'spec', type: { message: 'NamespaceSpec' } },
    3: { name: 'status', type: { message: 'NamespaceStatus' } },
  },
  NamespaceSpec: { 1: { name: 'finalizers', type: 'string', repeated: true } },
  NamespaceStatus: { 1: s('phase') },
  ConfigMap: {
    1: { name: 'metadata', type: { message: 'ObjectMeta' } },
    2: { name: 'data', type: 'map<string,string>' },
    3: { name: 'binaryData', type: 'map<string,bytes>' },
    4: { name: 'immutable', type: 'optbool' },
  },
  Secret: {
    1: { name: 'metadata', type: { message: 'ObjectMeta' } },
    2: { name: 'data', type: 'map<string,bytes>' },
    3: s('type'),
    4: { name: 'stringData', type: 'map<string,string>' },
    5: { name: 'immutable', type: 'optbool' },
  },
  // k8s.io/api/authentication/v1/generated.proto.
  TokenRequest: {
    1: { name: 'metadata', type: { message: 'ObjectMeta' } },
    2: m('spec', 'TokenRequestSpec'),
    3: m('status', 'TokenRequestStatus'),
  },
  TokenRequestSpec: {
    1: { name: 'audiences', type: 'string', repeated: true },
    3: m('boundObjectRef', 'BoundObjectReference'),
    4: t('expirationSeconds', 'optint'),
  },
  BoundObjectReference: { 1: s('kind'), 2: s('apiVersion'), 3: s('name'), 4: s('uid') },
  TokenRequestStatus: { 1: s('token'), 2: t('expirationTimestamp', 'time') },
  // authentication/v1 reviews (generated.proto): `kubectl auth whoami` sends a SelfSubjectReview.
  // UserInfo's `extra` (a map of ExtraValue messages) is not described: a body carrying it answers 415.
  SelfSubjectReview: { 1: m('metadata', 'ObjectMeta'), 2: m('status', 'SelfSubjectReviewStatus') },
  SelfSubjectReviewStatus: { 1: m('userInfo', 'UserInfo') },
  UserInfo: { 1: s('username'), 2: s('uid'), 3: { name: 'groups', type: 'string', repeated: true } },
  TokenReview: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'TokenReviewSpec'),
    3: m('status', 'TokenReviewStatus'),
  },
  TokenReviewSpec: { 1: s('token'), 2: { name: 'audiences', type: 'string', repeated: true } },
  TokenReviewStatus: {
    1: t('authenticated', 'bool'),
    2: m('user', 'UserInfo'),
    3: s('error'),
    4: { name: 'audiences', type: 'string', repeated: true },
  },
  ServiceAccount: {
    1: { name: 'metadata', type: { message: 'ObjectMeta' } },
    2: { name: 'secrets', type: { message: 'ObjectReference' }, repeated: true },
    3: { name: 'imagePullSecrets', type: { message: 'LocalObjectReference' }, repeated: true },
    4: { name: 'automountServiceAccountToken', type: 'optbool' },
  },
  LabelSelector: {
    1: t('matchLabels', 'map<string,string>'),
    2: m('matchExpressions', 'LabelSelectorRequirement', true),
  },
  LabelSelectorRequirement: { 1: s('key'), 2: s('operator'), 3: { name: 'values', type: 'string', repeated: true } },
  Deployment: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'DeploymentSpec'),
    3: m('status', 'DeploymentStatus'),
  },
  DeploymentSpec: {
    1: t('replicas', 'optint'),
    2: m('selector', 'LabelSelector'),
    3: m('template', 'PodTemplateSpec'),
    4: m('strategy', 'DeploymentStrategy'),
    5: t('minReadySeconds', 'int'),
    6: t('revisionHistoryLimit', 'optint'),
    7: t('paused', 'bool'),
    9: t('progressDeadlineSeconds', 'optint'),
  },
  DeploymentStrategy: { 1: s('type'), 2: m('rollingUpdate', 'RollingUpdateDeployment') },
  RollingUpdateDeployment: { 1: t('maxUnavailable', 'intOrString'), 2: t('maxSurge', 'intOrString') },
  DeploymentStatus: {
    1: t('observedGeneration', 'int'),
    2: t('replicas', 'int'),
    3: t('updatedReplicas', 'int'),
    4: t('availableReplicas', 'int'),
    5: t('unavailableReplicas', 'int'),
    6: m('conditions', 'DeploymentCondition', true),
    7: t('readyReplicas', 'int'),
    8: t('collisionCount', 'optint'),
    9: t('terminatingReplicas', 'optint'),
  },
  DeploymentCondition: {
    1: s('type'),
    2: s('status'),
    4: s('reason'),
    5: s('message'),
    6: t('lastUpdateTime', 'time'),
    7: t('lastTransitionTime', 'time'),
  },
  PodTemplateSpec: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'PodSpec') },
  PodSpec: {
    2: m('containers', 'Container', true),
    3: s('restartPolicy'),
    4: t('terminationGracePeriodSeconds', 'optint'),
    5: t('activeDeadlineSeconds', 'optint'),
    6: s('dnsPolicy'),
    7: t('nodeSelector', 'map<string,string>'),
    8: s('serviceAccountName'),
    9: s('serviceAccount'),
    10: s('nodeName'),
    11: t('hostNetwork', 'bool'),
    12: t('hostPID', 'bool'),
    13: t('hostIPC', 'bool'),
    // `kubectl create job --from=cronjob/x` copies the stored (defaulted) pod spec: securityContext {}.
    14: m('securityContext', 'PodSecurityContext'),
    15: m('imagePullSecrets', 'LocalObjectReference', true),
    16: s('hostname'),
    17: s('subdomain'),
    19: s('schedulerName'),
    20: m('initContainers', 'Container', true),
    21: t('automountServiceAccountToken', 'optbool'),
    24: s('priorityClassName'),
    25: t('priority', 'optint'),
    30: t('enableServiceLinks', 'optbool'),
  },
  Container: {
    1: s('name'),
    2: s('image'),
    3: { name: 'command', type: 'string', repeated: true },
    4: { name: 'args', type: 'string', repeated: true },
    5: s('workingDir'),
    6: m('ports', 'ContainerPort', true),
    7: m('env', 'EnvVar', true),
    8: m('resources', 'ResourceRequirements'),
    13: s('terminationMessagePath'),
    14: s('imagePullPolicy'),
    16: t('stdin', 'bool'),
    17: t('stdinOnce', 'bool'),
    18: t('tty', 'bool'),
    20: s('terminationMessagePolicy'),
    24: t('restartPolicy', 'optstring'),
  },
  PodSecurityContext: {
    2: t('runAsUser', 'optint'),
    3: t('runAsNonRoot', 'optbool'),
    5: t('fsGroup', 'optint'),
    6: t('runAsGroup', 'optint'),
  },
  ContainerPort: {
    1: s('name'),
    2: t('hostPort', 'int'),
    3: t('containerPort', 'int'),
    4: s('protocol'),
    5: s('hostIP'),
  },
  EnvVar: { 1: s('name'), 2: s('value') },
  ResourceRequirements: { 1: t('limits', 'map<string,quantity>'), 2: t('requests', 'map<string,quantity>') },
  Service: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'ServiceSpec'),
    3: m('status', 'ServiceStatus'),
  },
  ServiceSpec: {
    1: m('ports', 'ServicePort', true),
    2: t('selector', 'map<string,string>'),
    3: s('clusterIP'),
    4: s('type'),
    5: { name: 'externalIPs', type: 'string', repeated: true },
    7: s('sessionAffinity'),
    8: s('loadBalancerIP'),
    10: s('externalName'),
    11: s('externalTrafficPolicy'),
    12: t('healthCheckNodePort', 'int'),
    13: t('publishNotReadyAddresses', 'bool'),
    18: { name: 'clusterIPs', type: 'string', repeated: true },
  },
  ServicePort: {
    1: s('name'),
    2: s('protocol'),
    3: t('port', 'int'),
    4: t('targetPort', 'intOrString'),
    5: t('nodePort', 'int'),
    6: t('appProtocol', 'optstring'),
  },
  // LoadBalancerStatus.ingress is not described: a body carrying it answers 415.
  ServiceStatus: { 1: m('loadBalancer', 'LoadBalancerStatus') },
  LoadBalancerStatus: {},
  // batch/v1 (k8s.io/api/batch/v1/generated.proto): kubectl create job|cronjob.
  Job: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'JobSpec'), 3: m('status', 'JobStatus') },
  JobSpec: {
    1: t('parallelism', 'optint'),
    2: t('completions', 'optint'),
    3: t('activeDeadlineSeconds', 'optint'),
    4: m('selector', 'LabelSelector'),
    5: t('manualSelector', 'optbool'),
    6: m('template', 'PodTemplateSpec'),
    7: t('backoffLimit', 'optint'),
    8: t('ttlSecondsAfterFinished', 'optint'),
    9: t('completionMode', 'optstring'),
    10: t('suspend', 'optbool'),
  },
  // Only what an empty status writes (its non-pointer fields, as zeros).
  JobStatus: { 4: t('active', 'int'), 5: t('succeeded', 'int'), 6: t('failed', 'int'), 7: s('completedIndexes') },
  JobTemplateSpec: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'JobSpec') },
  CronJob: { 1: m('metadata', 'ObjectMeta'), 2: m('spec', 'CronJobSpec'), 3: m('status', 'CronJobStatus') },
  CronJobSpec: {
    1: s('schedule'),
    2: t('startingDeadlineSeconds', 'optint'),
    3: s('concurrencyPolicy'),
    4: t('suspend', 'optbool'),
    5: m('jobTemplate', 'JobTemplateSpec'),
    6: t('successfulJobsHistoryLimit', 'optint'),
    7: t('failedJobsHistoryLimit', 'optint'),
    8: t('timeZone', 'optstring'),
  },
  CronJobStatus: {},
  // scheduling/v1: kubectl create priorityclass.
  PriorityClass: {
    1: m('metadata', 'ObjectMeta'),
    // Value has no omitempty in JSON: a written 0 stays (optint keeps zeros).
    2: t('value', 'optint'),
    3: t('globalDefault', 'bool'),
    4: s('description'),
    5: t('preemptionPolicy', 'optstring'),
  },
  // rbac/v1: kubectl create role|rolebinding|clusterrole|clusterrolebinding.
  PolicyRule: {
    1: { name: 'verbs', type: 'string', repeated: true },
    2: { name: 'apiGroups', type: 'string', repeated: true },
    3: { name: 'resources', type: 'string', repeated: true },
    4: { name: 'resourceNames', type: 'string', repeated: true },
    5: { name: 'nonResourceURLs', type: 'string', repeated: true },
  },
  Role: { 1: m('metadata', 'ObjectMeta'), 2: m('rules', 'PolicyRule', true) },
  ClusterRole: {
    1: m('metadata', 'ObjectMeta'),
    2: m('rules', 'PolicyRule', true),
    3: m('aggregationRule', 'AggregationRule'),
  },
  AggregationRule: { 1: m('clusterRoleSelectors', 'LabelSelector', true) },
  Subject: { 1: s('kind'), 2: s('apiGroup'), 3: s('name'), 4: s('namespace') },
  RoleRef: { 1: s('apiGroup'), 2: s('kind'), 3: s('name') },
  RoleBinding: { 1: m('metadata', 'ObjectMeta'), 2: m('subjects', 'Subject', true), 3: m('roleRef', 'RoleRef') },
  ClusterRoleBinding: {
    1: m('metadata', 'ObjectMeta'),
    2: m('subjects', 'Subject', true),
    3: m('roleRef', 'RoleRef'),
  },
  // autoscaling/v1: kubectl autoscale.
  HorizontalPodAutoscaler: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'HorizontalPodAutoscalerSpec'),
    3: m('status', 'HorizontalPodAutoscalerStatus'),
  },
  HorizontalPodAutoscalerSpec: {
    1: m('scaleTargetRef', 'CrossVersionObjectReference'),
    2: t('minReplicas', 'optint'),
    3: t('maxReplicas', 'int'),
    4: t('targetCPUUtilizationPercentage', 'optint'),
  },
  CrossVersionObjectReference: { 1: s('kind'), 2: s('name'), 3: s('apiVersion') },
  HorizontalPodAutoscalerStatus: {
    1: t('observedGeneration', 'optint'),
    2: t('lastScaleTime', 'time'),
    3: t('currentReplicas', 'int'),
    4: t('desiredReplicas', 'int'),
    5: t('currentCPUUtilizationPercentage', 'optint'),
  },
  // policy/v1: kubectl create poddisruptionbudget.
  // `kubectl create quota`.
  ResourceQuota: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'ResourceQuotaSpec'),
    3: m('status', 'ResourceQuotaStatus'),
  },
  ResourceQuotaSpec: {
    1: t('hard', 'map<string,quantity>'),
    2: { name: 'scopes', type: 'string', repeated: true },
    3: m('scopeSelector', 'ScopeSelector'),
  },
  ResourceQuotaStatus: { 1: t('hard', 'map<string,quantity>'), 2: t('used', 'map<string,quantity>') },
  ScopeSelector: { 1: m('matchExpressions', 'ScopedResourceSelectorRequirement', true) },
  ScopedResourceSelectorRequirement: {
    1: s('scopeName'),
    2: s('operator'),
    3: { name: 'values', type: 'string', repeated: true },
  },
  PodDisruptionBudget: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'PodDisruptionBudgetSpec'),
    3: m('status', 'PodDisruptionBudgetStatus'),
  },
  PodDisruptionBudgetSpec: {
    1: t('minAvailable', 'intOrString'),
    2: m('selector', 'LabelSelector'),
    3: t('maxUnavailable', 'intOrString'),
    4: t('unhealthyPodEvictionPolicy', 'optstring'),
  },
  PodDisruptionBudgetStatus: {
    1: t('observedGeneration', 'int'),
    3: t('disruptionsAllowed', 'int'),
    4: t('currentHealthy', 'int'),
    5: t('desiredHealthy', 'int'),
    6: t('expectedPods', 'int'),
  },
  // authorization/v1 (k8s.io/api/authorization/v1/generated.proto): `kubectl auth can-i` sends a
  // SelfSubjectAccessReview, `auth can-i --list` a SelfSubjectRulesReview. SubjectAccessReviewSpec's
  // `extra` (a map of ExtraValue messages) is not described: a body carrying it answers 415.
  SubjectAccessReview: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'SubjectAccessReviewSpec'),
    3: m('status', 'SubjectAccessReviewStatus'),
  },
  LocalSubjectAccessReview: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'SubjectAccessReviewSpec'),
    3: m('status', 'SubjectAccessReviewStatus'),
  },
  SelfSubjectAccessReview: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'SelfSubjectAccessReviewSpec'),
    3: m('status', 'SubjectAccessReviewStatus'),
  },
  SubjectAccessReviewSpec: {
    1: m('resourceAttributes', 'ResourceAttributes'),
    2: m('nonResourceAttributes', 'NonResourceAttributes'),
    3: s('user'),
    4: { name: 'groups', type: 'string', repeated: true },
    6: s('uid'),
  },
  SelfSubjectAccessReviewSpec: {
    1: m('resourceAttributes', 'ResourceAttributes'),
    2: m('nonResourceAttributes', 'NonResourceAttributes'),
  },
  ResourceAttributes: {
    1: s('namespace'),
    2: s('verb'),
    3: s('group'),
    4: s('version'),
    5: s('resource'),
    6: s('subresource'),
    7: s('name'),
    8: m('fieldSelector', 'FieldSelectorAttributes'),
    9: m('labelSelector', 'LabelSelectorAttributes'),
  },
  FieldSelectorAttributes: { 1: s('rawSelector'), 2: m('requirements', 'FieldSelectorRequirement', true) },
  LabelSelectorAttributes: { 1: s('rawSelector'), 2: m('requirements', 'LabelSelectorRequirement', true) },
  // meta/v1 FieldSelectorRequirement.
  FieldSelectorRequirement: { 1: s('key'), 2: s('operator'), 3: { name: 'values', type: 'string', repeated: true } },
  NonResourceAttributes: { 1: s('path'), 2: s('verb') },
  // Allowed has no omitempty in JSON; the server fills the status anyway.
  SubjectAccessReviewStatus: {
    1: t('allowed', 'bool'),
    2: s('reason'),
    3: s('evaluationError'),
    4: t('denied', 'bool'),
  },
  SelfSubjectRulesReview: {
    1: m('metadata', 'ObjectMeta'),
    2: m('spec', 'SelfSubjectRulesReviewSpec'),
    3: m('status', 'SubjectRulesReviewStatus'),
  },
  SelfSubjectRulesReviewSpec: { 1: s('namespace') },
  SubjectRulesReviewStatus: {
    1: m('resourceRules', 'ResourceRule', true),
    2: m('nonResourceRules', 'NonResourceRule', true),
    3: t('incomplete', 'bool'),
    4: s('evaluationError'),
  },
  ResourceRule: {
    1: { name: 'verbs', type: 'string', repeated: true },
    2: { name: 'apiGroups', type: 'string', repeated: true },
    3: { name: 'resources', type: 'string', repeated: true },
    4: { name: 'resourceNames', type: 'string', repeated: true },
  },
  NonResourceRule: {
    1: { name: 'verbs', type: 'string', repeated: true },
    2: { name: 'nonResourceURLs', type: 'string', repeated: true },
  },
};

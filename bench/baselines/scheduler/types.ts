// Minimal strict shapes of the Kubernetes JSON objects the default-profile plugins read
// (k8s.io/api/core/v1 and apps/v1). Only the fields a plugin looks at are declared; everything is
// optional where the API allows it to be absent, so real `kubectl get -o json` output type-checks.

/** A resource quantity as it appears in JSON: "100m", "32Gi", "1e3", or a bare number. */
export type QuantityString = string | number;

/** v1.ResourceList: resource name → quantity. */
export type ResourceList = Readonly<Record<string, QuantityString>>;

export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly labels?: Readonly<Record<string, string>>;
  /** Set on terminating pods; PodTopologySpread skips them when counting (k/k #87621). */
  readonly deletionTimestamp?: string;
}

// --- label selectors (metav1.LabelSelector) ------------------------------------------------------

export type LabelSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: LabelSelectorOperator;
  readonly values?: readonly string[];
}

export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly LabelSelectorRequirement[];
}

// --- node selectors (v1.NodeSelector) -------------------------------------------------------------

export type NodeSelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: NodeSelectorOperator;
  readonly values?: readonly string[];
}

export interface NodeSelectorTerm {
  readonly matchExpressions?: readonly NodeSelectorRequirement[];
  /** Only `metadata.name` is a supported field key. */
  readonly matchFields?: readonly NodeSelectorRequirement[];
}

export interface NodeSelector {
  readonly nodeSelectorTerms: readonly NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  readonly weight: number;
  readonly preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
  readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly PreferredSchedulingTerm[];
}

// --- pod (anti-)affinity ------------------------------------------------------------------------

export interface PodAffinityTerm {
  readonly labelSelector?: LabelSelector | null;
  readonly namespaces?: readonly string[];
  readonly namespaceSelector?: LabelSelector | null;
  readonly topologyKey: string;
  /** Merged into labelSelector as `key In [pod's value]` (what the apiserver does since v1.31). */
  readonly matchLabelKeys?: readonly string[];
  /** Merged into labelSelector as `key NotIn [pod's value]`. */
  readonly mismatchLabelKeys?: readonly string[];
}

export interface WeightedPodAffinityTerm {
  readonly weight: number;
  readonly podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinity {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: readonly PodAffinityTerm[];
  readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly WeightedPodAffinityTerm[];
}

export interface Affinity {
  readonly nodeAffinity?: NodeAffinity;
  readonly podAffinity?: PodAffinity;
  readonly podAntiAffinity?: PodAffinity;
}

// --- taints and tolerations -----------------------------------------------------------------------

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

export interface Toleration {
  readonly key?: string;
  /** Empty means Equal. */
  readonly operator?: 'Equal' | 'Exists' | '';
  readonly value?: string;
  /** Empty matches every effect. */
  readonly effect?: TaintEffect | '';
  readonly tolerationSeconds?: number;
}

// --- topology spread ------------------------------------------------------------------------------

export type NodeInclusionPolicy = 'Honor' | 'Ignore';

export interface TopologySpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  readonly labelSelector?: LabelSelector | null;
  readonly minDomains?: number;
  readonly nodeAffinityPolicy?: NodeInclusionPolicy;
  readonly nodeTaintsPolicy?: NodeInclusionPolicy;
  readonly matchLabelKeys?: readonly string[];
}

// --- containers -----------------------------------------------------------------------------------

export interface ContainerPort {
  readonly containerPort?: number;
  readonly hostPort?: number;
  readonly hostIP?: string;
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface ResourceRequirements {
  readonly requests?: ResourceList;
  readonly limits?: ResourceList;
}

export interface Container {
  readonly name?: string;
  readonly image?: string;
  readonly resources?: ResourceRequirements;
  readonly ports?: readonly ContainerPort[];
  /** `Always` on an init container makes it a sidecar (restartable init container). */
  readonly restartPolicy?: 'Always';
}

export interface PodSpec {
  readonly nodeName?: string;
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly affinity?: Affinity;
  readonly tolerations?: readonly Toleration[];
  readonly topologySpreadConstraints?: readonly TopologySpreadConstraint[];
  readonly containers: readonly Container[];
  readonly initContainers?: readonly Container[];
  readonly overhead?: ResourceList;
  readonly priority?: number;
  readonly schedulerName?: string;
}

export interface Pod {
  readonly metadata: ObjectMeta;
  readonly spec: PodSpec;
}

// --- node -----------------------------------------------------------------------------------------

export interface ContainerImage {
  readonly names?: readonly string[];
  readonly sizeBytes?: number;
}

export interface Node {
  readonly metadata: ObjectMeta & { readonly name: string };
  readonly spec?: {
    readonly unschedulable?: boolean;
    readonly taints?: readonly Taint[];
  };
  readonly status?: {
    readonly allocatable?: ResourceList;
    readonly images?: readonly ContainerImage[];
  };
}

export interface Namespace {
  readonly metadata: ObjectMeta & { readonly name: string };
}

// --- owners used for PodTopologySpread's system-default selector (helper.DefaultSelector) ---------

/** A Service or ReplicationController: a map selector. */
export interface MapSelectorOwner {
  readonly metadata: ObjectMeta;
  readonly spec?: { readonly selector?: Readonly<Record<string, string>> | null };
}

/** A ReplicaSet or StatefulSet: a LabelSelector. */
export interface LabelSelectorOwner {
  readonly metadata: ObjectMeta;
  readonly spec?: { readonly selector?: LabelSelector | null };
}

/** What the loaders share: the typed API, its error type and its value types. */
export {
  type CgroupApi,
  type CgroupContainer,
  type CgroupErrorCode,
  type CgroupFileName,
  type CgroupFiles,
  type CgroupNodeConfig,
  type CgroupPod,
  type ContainerCgroups,
  type CriLinuxResources,
  isPodCgroupsError,
  type NodeCgroups,
  type OciFragment,
  type OciNamespace,
  type PodCgroups,
  type PodCgroupsError,
  type QosClass,
  type QuantityValue,
  type ResourceConfig,
  type ResourceQuantities,
  type SchedulerRequests,
  type TierCgroup,
} from './cgroup.js';
export { KubewasmError } from './errors.js';
export {
  type CpuCgroupValues,
  type InsufficientResource,
  type Kubewasm,
  type NodeResourceState,
  QUOTA_PERIOD_US,
  type ResourceAmounts,
} from './kubewasm.js';
export {
  type Explanation,
  type KubeObject,
  type LabelSelector,
  type PendingPod,
  type Placement,
  SchedulerEngine,
  type SchedulerProfile,
} from './scheduler.js';
export {
  type KeyValue,
  MvccStore,
  type RangeOptions,
  type RangeResult,
  type StoreEvent,
  type StoreOptions,
  type WalReplay,
  type WatchOptions,
  type WatchResponse,
} from './store.js';

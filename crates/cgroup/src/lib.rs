//! Resource math of the kubelet and the container runtime: Kubernetes quantities, pod
//! requests and limits, QoS classes, OOM scores, and the cgroup values and OCI fragment a pod's
//! containers become.
//!
//! Pure Rust, no JavaScript: `crates/wasm` exposes it to TypeScript. The batch entry points are
//! [`pod_cgroups`] (one pod) and [`node_cgroups`] (many pods on one node); [`json`] reads v1 Pod
//! JSON into them and writes their answers as JSON, for the binding.

mod batch;
mod cgroup_path;
mod container;
mod cpu;
mod error;
pub mod json;
mod memory;
mod oci;
mod oom;
mod pod_cgroup;
mod pod_resources;
mod pod_spec;
mod pod_update;
mod qos;

pub use batch::{
    node_cgroups, pod_cgroups, ContainerCgroups, NodeBatch, NodeCgroups, NodeConfig, NodeTiers,
    PodCgroups, TierCgroup,
};
pub use cgroup_path::{
    pod_cgroup_name, qos_cgroup_name, CgroupDriver, CgroupName, KUBEPODS, POD_CGROUP_PREFIX,
};
pub use container::{container_resources, LinuxContainerResources, CGROUP2_MEMORY_OOM_GROUP};
pub use cpu::{
    check_period, cpu_max, cpu_weight_linear, cpu_weight_log_quadratic, cpu_weight_to_shares,
    fs2_cpu_max, milli_cpu_to_quota, milli_cpu_to_shares, quota_to_milli_cpu, shares_to_milli_cpu,
    CpuValues, WeightFormula, CGROUP2_MAX, MAX_SHARES, MAX_WEIGHT, MIN_QUOTA_PERIOD, MIN_SHARES,
    MIN_WEIGHT, QUOTA_PERIOD,
};
pub use error::CgroupError;
pub use kubewasm_api::{Format, Quantity, QuantityError};
pub use memory::{
    container_memory_qos, container_memory_unified, memory_max, MemoryQos, MemoryQosConfig,
    MemoryQosPolicy, CGROUP2_MEMORY_HIGH, CGROUP2_MEMORY_LOW, CGROUP2_MEMORY_MIN,
    DEFAULT_MEMORY_THROTTLING_FACTOR, DEFAULT_PAGE_SIZE,
};
pub use oci::{container_namespaces, Namespace, NamespaceKind, OciFragment};
pub use oom::{
    container_oom_score_adjust, BESTEFFORT_OOM_SCORE_ADJ, GUARANTEED_OOM_SCORE_ADJ,
    KUBELET_OOM_SCORE_ADJ, KUBE_PROXY_OOM_SCORE_ADJ,
};
pub use pod_cgroup::{
    qos_tier_configs, resource_config_for_pod, CgroupFiles, QosTierConfigs, ResourceConfig,
};
pub use pod_resources::{
    non_zero_container_requests, non_zero_defaults, pod_limits, pod_requests, scheduler_requests,
    PodResourcesOptions, SchedulerRequests, DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST,
};
pub use pod_spec::{
    quantity_of, resource_list, Container, ContainerRestartPolicy, PodNamespaces, PodSpec,
    ResourceList, Resources, CPU, HUGEPAGES_PREFIX, MEMORY, SYSTEM_CRITICAL_PRIORITY,
    SYSTEM_NODE_CRITICAL,
};
pub use pod_update::{is_mirror_pod, is_static_or_mirror_pod, is_static_pod, APISERVER_SOURCE};
pub use qos::{pod_qos, QosClass};

//! The node config as JSON: the node's memory and the kubelet settings the math reads. The
//! config is ours, not a Kubernetes object, and strict: an unknown field is a typo, `E_BAD_JSON`.

use kubewasm_api::CodedError;
use serde::{Deserialize, Deserializer};

use crate::{CgroupDriver, MemoryQosPolicy, NodeConfig, WeightFormula};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NodeConfigJson {
    memory_capacity: i64,
    allocatable_memory: Option<i64>,
    cpu_cfs_quota: Option<bool>,
    cpu_cfs_quota_period_us: Option<u64>,
    enforce_memory_qos: Option<bool>,
    memory_qos_policy: Option<PolicyJson>,
    /// Absent: the default 0.9; `null`: none (Kubernetes 1.37).
    #[serde(default, deserialize_with = "present")]
    memory_throttling_factor: Option<Option<f64>>,
    page_size: Option<i64>,
    cgroup_driver: Option<DriverJson>,
    cgroup_v2: Option<bool>,
    single_process_oom_kill: Option<bool>,
    weight_formula: Option<FormulaJson>,
    apply_api_defaults: Option<bool>,
}

/// Tells a field given as `null` from a missing one.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum PolicyJson {
    Legacy,
    NoReservation,
    TieredReservation,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum DriverJson {
    Systemd,
    Cgroupfs,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum FormulaJson {
    Linear,
    LogQuadratic,
}

/// Parses the node config; fields left out take `NodeConfig::default()`, and allocatable memory
/// defaults to the capacity (no reservations).
pub fn node_config(json: &str) -> Result<NodeConfig, CodedError> {
    let n: NodeConfigJson = serde_json::from_str(json).map_err(CodedError::bad_json)?;
    let d = NodeConfig::default();
    Ok(NodeConfig {
        memory_capacity: n.memory_capacity,
        allocatable_memory: n.allocatable_memory.unwrap_or(n.memory_capacity),
        cpu_cfs_quota: n.cpu_cfs_quota.unwrap_or(d.cpu_cfs_quota),
        cpu_cfs_quota_period_us: n
            .cpu_cfs_quota_period_us
            .unwrap_or(d.cpu_cfs_quota_period_us),
        enforce_memory_qos: n.enforce_memory_qos.unwrap_or(d.enforce_memory_qos),
        memory_qos_policy: match n.memory_qos_policy {
            None => d.memory_qos_policy,
            Some(PolicyJson::Legacy) => MemoryQosPolicy::Legacy,
            Some(PolicyJson::NoReservation) => MemoryQosPolicy::NoReservation,
            Some(PolicyJson::TieredReservation) => MemoryQosPolicy::TieredReservation,
        },
        memory_throttling_factor: n
            .memory_throttling_factor
            .unwrap_or(d.memory_throttling_factor),
        page_size: n.page_size.unwrap_or(d.page_size),
        cgroup_driver: match n.cgroup_driver {
            None => d.cgroup_driver,
            Some(DriverJson::Systemd) => CgroupDriver::Systemd,
            Some(DriverJson::Cgroupfs) => CgroupDriver::Cgroupfs,
        },
        cgroup_v2: n.cgroup_v2.unwrap_or(d.cgroup_v2),
        single_process_oom_kill: n
            .single_process_oom_kill
            .unwrap_or(d.single_process_oom_kill),
        weight_formula: match n.weight_formula {
            None => d.weight_formula,
            Some(FormulaJson::Linear) => WeightFormula::Linear,
            Some(FormulaJson::LogQuadratic) => WeightFormula::LogQuadratic,
        },
        apply_api_defaults: n.apply_api_defaults.unwrap_or(d.apply_api_defaults),
    })
}

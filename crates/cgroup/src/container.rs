//! A container's CRI `LinuxContainerResources`, as the kubelet fills it:
//! `generateLinuxContainerResources` / `calculateLinuxResources` of kubernetes
//! `pkg/kubelet/kuberuntime/kuberuntime_container_linux.go`.

use crate::cpu::milli_cpu_to_quota;
use crate::cpu::milli_cpu_to_shares;
use crate::memory::container_memory_unified;
use crate::oom::oom_score_adjust_with;
use crate::pod_spec::{Container, PodSpec, CPU, MEMORY};
use crate::qos::{pod_qos, QosClass};
use crate::{CgroupError, NodeConfig, Quantity};
use std::collections::BTreeMap;

/// `memory.oom.group`: kill the whole container on OOM; set on cgroup v2 unless
/// `singleProcessOOMKill` (pkg/kubelet/kuberuntime/kuberuntime_container_linux.go).
pub const CGROUP2_MEMORY_OOM_GROUP: &str = "memory.oom.group";

/// CRI `runtime.v1.LinuxContainerResources` (the fields the kubelet sets). 0 means unset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinuxContainerResources {
    /// `cpu_period` in µs (0 when CFS quota is off).
    pub cpu_period: i64,
    /// `cpu_quota` in µs: 0 for no limit.
    pub cpu_quota: i64,
    /// `cpu_shares`.
    pub cpu_shares: i64,
    /// `memory_limit_in_bytes` (0: none).
    pub memory_limit_in_bytes: i64,
    /// `oom_score_adj`.
    pub oom_score_adj: i64,
    /// `unified`: cgroup v2 files (`memory.oom.group`, `memory.min`, `memory.low`, `memory.high`).
    pub unified: BTreeMap<String, String>,
}

/// The kubelet's `LinuxContainerResources` for `container` of `pod` on a node.
///
/// Shares come from the CPU request, or from the limit when no request is named; the quota
/// from the limit over the configured period; `oom_score_adj` from
/// [`crate::container_oom_score_adjust`].
pub fn container_resources(
    pod: &PodSpec,
    container: &Container,
    node: &NodeConfig,
) -> Result<LinuxContainerResources, CgroupError> {
    container_resources_with(pod, container, node, &mut || pod_qos(pod))
}

/// [`container_resources`] with the pod's class given (asked for where upstream computes it).
pub(crate) fn container_resources_with(
    pod: &PodSpec,
    container: &Container,
    node: &NodeConfig,
    qos: &mut dyn FnMut() -> Result<QosClass, CgroupError>,
) -> Result<LinuxContainerResources, CgroupError> {
    let requests = &container.resources.requests;
    let limits = &container.resources.limits;
    let zero = Quantity::zero();
    let cpu_limit = limits.get(CPU).unwrap_or(&zero).milli_value()?;
    let cpu_shares = match requests.get(CPU) {
        // "If request is not specified, but limit is, we want request to default to limit."
        None => milli_cpu_to_shares(cpu_limit),
        Some(request) => milli_cpu_to_shares(request.milli_value()?),
    };
    let memory_limit = limits.get(MEMORY).unwrap_or(&zero).value()?;

    let mut resources = LinuxContainerResources {
        cpu_shares: i64::try_from(cpu_shares).unwrap_or(i64::MAX),
        memory_limit_in_bytes: memory_limit,
        oom_score_adj: i64::from(oom_score_adjust_with(
            pod,
            container,
            node.memory_capacity,
            &mut *qos,
        )?),
        ..Default::default()
    };
    if node.cpu_cfs_quota {
        let period = node.cpu_cfs_quota_period_us;
        resources.cpu_quota = milli_cpu_to_quota(cpu_limit, period)?;
        resources.cpu_period = i64::try_from(period).unwrap_or(i64::MAX);
    }
    if node.cgroup_v2 && !node.single_process_oom_kill {
        resources
            .unified
            .insert(CGROUP2_MEMORY_OOM_GROUP.to_string(), "1".to_string());
    }
    if node.cgroup_v2 {
        // MemoryQoS needs cgroup v2: "Set memory.min and memory.high if MemoryQoS enabled with
        // cgroups v2".
        let request = requests.get(MEMORY).map_or(Ok(0), Quantity::value)?;
        let unified = container_memory_unified(&node.memory_qos(), qos()?, request, memory_limit)?;
        resources.unified.extend(unified);
    }
    Ok(resources)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GI: i64 = 1 << 30;

    fn node() -> NodeConfig {
        NodeConfig {
            memory_capacity: 16 * GI,
            allocatable_memory: 15 * GI,
            ..NodeConfig::default()
        }
    }

    #[test]
    fn burstable_container() {
        let pod = PodSpec::new(
            "u",
            vec![Container::new(
                "a",
                &[("cpu", "250m"), ("memory", "1Gi")],
                &[("cpu", "500m"), ("memory", "2Gi")],
            )
            .unwrap()],
        );
        let got = container_resources(&pod, &pod.containers[0], &node()).unwrap();
        assert_eq!(got.cpu_shares, 256);
        assert_eq!(got.cpu_quota, 50_000);
        assert_eq!(got.cpu_period, 100_000);
        assert_eq!(got.memory_limit_in_bytes, 2 * GI);
        // 1000 - 1000·1Gi/16Gi = 937.5 → 938 (1000 - 62).
        assert_eq!(got.oom_score_adj, 938);
        assert_eq!(
            got.unified.get("memory.oom.group").map(String::as_str),
            Some("1")
        );
        assert!(!got.unified.contains_key("memory.min"));
    }

    #[test]
    fn limit_only_cpu_takes_shares_from_the_limit() {
        let pod = PodSpec::new(
            "u",
            vec![Container::new("a", &[], &[("cpu", "1")]).unwrap()],
        );
        let got = container_resources(&pod, &pod.containers[0], &node()).unwrap();
        assert_eq!(got.cpu_shares, 1024);
        // An explicit zero request is a request: MinShares.
        let pod = PodSpec::new(
            "u",
            vec![Container::new("a", &[("cpu", "0")], &[("cpu", "1")]).unwrap()],
        );
        let got = container_resources(&pod, &pod.containers[0], &node()).unwrap();
        assert_eq!(got.cpu_shares, 2);
    }

    #[test]
    fn memory_qos_and_switches() {
        let pod = PodSpec::new(
            "u",
            vec![Container::new("a", &[("memory", "128Mi")], &[("memory", "256Mi")]).unwrap()],
        );
        let config = NodeConfig {
            enforce_memory_qos: true,
            cpu_cfs_quota: false,
            single_process_oom_kill: true,
            ..node()
        };
        let got = container_resources(&pod, &pod.containers[0], &config).unwrap();
        assert_eq!((got.cpu_quota, got.cpu_period), (0, 0));
        assert_eq!(
            got.unified.get("memory.min").map(String::as_str),
            Some("134217728")
        );
        assert_eq!(
            got.unified.get("memory.high").map(String::as_str),
            Some("255012864")
        );
        assert!(!got.unified.contains_key("memory.oom.group"));
        let v1 = NodeConfig {
            cgroup_v2: false,
            ..node()
        };
        let got = container_resources(&pod, &pod.containers[0], &v1).unwrap();
        assert!(got.unified.is_empty());
    }
}

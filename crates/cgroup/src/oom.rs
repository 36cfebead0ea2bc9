//! OOM score adjustment: `GetContainerOOMScoreAdjust` of kubernetes `pkg/kubelet/qos/policy.go`.

use crate::pod_spec::{Container, PodSpec, MEMORY};
use crate::qos::{pod_qos, QosClass};
use crate::CgroupError;

/// `KubeletOOMScoreAdj` — pkg/kubelet/qos/policy.go.
pub const KUBELET_OOM_SCORE_ADJ: i32 = -999;
/// `KubeProxyOOMScoreAdj` — pkg/kubelet/qos/policy.go.
pub const KUBE_PROXY_OOM_SCORE_ADJ: i32 = -999;
/// `guaranteedOOMScoreAdj` — pkg/kubelet/qos/policy.go (-998 before Kubernetes 1.27).
pub const GUARANTEED_OOM_SCORE_ADJ: i32 = -997;
/// `besteffortOOMScoreAdj` — pkg/kubelet/qos/policy.go.
pub const BESTEFFORT_OOM_SCORE_ADJ: i32 = 1000;

/// `1000 - (1000*request)/capacity` with Go's int64 truncating division, computed in 128 bits.
fn burstable_score(memory_request: i64, memory_capacity: i64) -> i64 {
    let scaled = 1000i128 * i128::from(memory_request) / i128::from(memory_capacity);
    i64::try_from(1000 - scaled).unwrap_or(i64::MIN)
}

/// `GetContainerOOMScoreAdjust(pod, container, memoryCapacity)`: node-critical and Guaranteed
/// pods -997, BestEffort 1000, Burstable `1000 - 1000·request/capacity` clamped to [3, 999]; a
/// sidecar scores no higher than the regular container with the smallest memory request.
pub fn container_oom_score_adjust(
    pod: &PodSpec,
    container: &Container,
    memory_capacity: i64,
) -> Result<i32, CgroupError> {
    oom_score_adjust_with(pod, container, memory_capacity, || pod_qos(pod))
}

/// [`container_oom_score_adjust`] with the pod's class given (asked for only when needed).
pub(crate) fn oom_score_adjust_with(
    pod: &PodSpec,
    container: &Container,
    memory_capacity: i64,
    qos: impl FnOnce() -> Result<QosClass, CgroupError>,
) -> Result<i32, CgroupError> {
    if memory_capacity <= 0 {
        return Err(CgroupError::InvalidCapacity {
            bytes: memory_capacity,
        });
    }
    if pod.is_node_critical() {
        return Ok(GUARANTEED_OOM_SCORE_ADJ);
    }
    match qos()? {
        QosClass::Guaranteed => return Ok(GUARANTEED_OOM_SCORE_ADJ),
        QosClass::BestEffort => return Ok(BESTEFFORT_OOM_SCORE_ADJ),
        QosClass::Burstable => {}
    }
    let request = memory_request(container)?;
    let mut score = burstable_score(request, memory_capacity);
    if is_sidecar(pod, container) {
        let min_regular = min_regular_container_memory(pod)?;
        score = score.min(burstable_score(min_regular, memory_capacity));
    }
    // "A guaranteed pod using 100% of memory can have an OOM score of 10. Ensure that burstable
    // pods have a higher OOM score adjustment."
    let floor = i64::from(1000 + GUARANTEED_OOM_SCORE_ADJ);
    if score < floor {
        return Ok(1000 + GUARANTEED_OOM_SCORE_ADJ);
    }
    // "Give burstable pods a higher chance of survival over besteffort pods."
    if score == i64::from(BESTEFFORT_OOM_SCORE_ADJ) {
        return Ok(BESTEFFORT_OOM_SCORE_ADJ - 1);
    }
    Ok(i32::try_from(score).unwrap_or(BESTEFFORT_OOM_SCORE_ADJ - 1))
}

/// The container's memory request in bytes, 0 when it names none.
fn memory_request(container: &Container) -> Result<i64, CgroupError> {
    container
        .resources
        .requests
        .get(MEMORY)
        .map_or(Ok(0), |q| Ok(q.value()?))
}

/// `isSidecarContainer`: restartPolicy Always and listed among the init containers.
fn is_sidecar(pod: &PodSpec, container: &Container) -> bool {
    container.is_restartable() && pod.init_containers.iter().any(|c| c.name == container.name)
}

/// `minRegularContainerMemory`: the smallest memory request of the regular containers.
fn min_regular_container_memory(pod: &PodSpec) -> Result<i64, CgroupError> {
    let mut min: Option<i64> = None;
    for container in &pod.containers {
        let value = memory_request(container)?;
        min = Some(min.map_or(value, |m| m.min(value)));
    }
    // API validation guarantees one regular container; without one, nothing lowers the score.
    Ok(min.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pod_spec::SYSTEM_NODE_CRITICAL;

    const GI: i64 = 1 << 30;

    fn burstable(memory: &str) -> PodSpec {
        PodSpec::new(
            "u",
            vec![Container::new("a", &[("memory", memory)], &[]).unwrap()],
        )
    }

    fn score(pod: &PodSpec, capacity: i64) -> i32 {
        container_oom_score_adjust(pod, &pod.containers[0], capacity).unwrap()
    }

    #[test]
    fn burstable_scores_scale_with_the_request() {
        // (request, capacity, score): 1000 - 1000*req/cap, truncated.
        for (memory, capacity, expected) in [
            ("1Gi", 10 * GI, 900),
            ("3Gi", 10 * GI, 700),
            ("1", 10 * GI, 999),    // 1000 - 0 = 1000 → 999
            ("100Mi", GI, 903),     // 1000 - 97.66 truncated
            ("10Gi", 10 * GI, 3),   // 0 → floor 3
            ("9.99Gi", 10 * GI, 3), // 1000 - 999 = 1 → 3
            ("9.9Gi", 10 * GI, 10),
            ("20Gi", 10 * GI, 3), // negative → 3
        ] {
            assert_eq!(score(&burstable(memory), capacity), expected, "{memory}");
        }
        // Any CPU-only Burstable container requests no memory and scores 999.
        let cpu_only = PodSpec::new(
            "u",
            vec![Container::new("a", &[("cpu", "1")], &[]).unwrap()],
        );
        assert_eq!(score(&cpu_only, GI), 999);
    }

    #[test]
    fn classes_and_criticality() {
        let guaranteed = PodSpec::new(
            "u",
            vec![Container::new(
                "a",
                &[("cpu", "1"), ("memory", "1Gi")],
                &[("cpu", "1"), ("memory", "1Gi")],
            )
            .unwrap()],
        );
        assert_eq!(score(&guaranteed, GI), -997);
        let best_effort = PodSpec::new("u", vec![Container::new("a", &[], &[]).unwrap()]);
        assert_eq!(score(&best_effort, GI), 1000);
        let mut critical = best_effort.clone();
        critical.static_or_mirror = true;
        critical.priority_class_name = SYSTEM_NODE_CRITICAL.into();
        assert_eq!(score(&critical, GI), -997);
        // Critical by priority but another class: the QoS decides.
        critical.priority_class_name = "system-cluster-critical".into();
        assert_eq!(score(&critical, GI), 1000);
    }

    #[test]
    fn sidecars_score_no_higher_than_the_smallest_regular_container() {
        let mut pod = PodSpec::new(
            "u",
            vec![
                Container::new("big", &[("memory", "4Gi")], &[]).unwrap(),
                Container::new("small", &[("memory", "2Gi")], &[]).unwrap(),
            ],
        );
        pod.init_containers = vec![Container::new("side", &[("memory", "1Gi")], &[])
            .unwrap()
            .restartable()];
        let side = &pod.init_containers[0];
        // Own score 900; smallest regular (2Gi) scores 800: the sidecar gets 800.
        assert_eq!(
            container_oom_score_adjust(&pod, side, 10 * GI).unwrap(),
            800
        );
        // A plain init container keeps its own score.
        let mut plain = pod.clone();
        plain.init_containers[0].restart_policy = None;
        let init = &plain.init_containers[0];
        assert_eq!(
            container_oom_score_adjust(&plain, init, 10 * GI).unwrap(),
            900
        );
    }

    #[test]
    fn capacity_must_be_positive() {
        let pod = burstable("1Gi");
        let err = container_oom_score_adjust(&pod, &pod.containers[0], 0).unwrap_err();
        assert_eq!(err.code(), "E_INVALID_CAPACITY");
    }
}

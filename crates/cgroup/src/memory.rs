//! Memory controls: cgroup v2 `memory.max`, and MemoryQoS (KEP-2570) `memory.min` /
//! `memory.low` / `memory.high` as kubernetes `pkg/kubelet/kuberuntime/kuberuntime_container_linux.go`
//! computes them for a container, in the 1.27–1.36 form (node.md §1.4) and the 1.37 form.

use crate::cpu::CGROUP2_MAX;
use crate::qos::QosClass;
use crate::CgroupError;
use std::collections::BTreeMap;

/// `Cgroup2MemoryMin` — pkg/kubelet/cm/cgroup_manager_linux.go.
pub const CGROUP2_MEMORY_MIN: &str = "memory.min";
/// `Cgroup2MemoryLow` — pkg/kubelet/cm/cgroup_manager_linux.go (Kubernetes 1.37).
pub const CGROUP2_MEMORY_LOW: &str = "memory.low";
/// `Cgroup2MemoryHigh` — pkg/kubelet/cm/cgroup_manager_linux.go.
pub const CGROUP2_MEMORY_HIGH: &str = "memory.high";

/// Which kubelet's MemoryQoS to model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MemoryQosPolicy {
    /// Kubernetes 1.27–1.36 (alpha): `memory.min` = the memory request for containers, pods and
    /// QoS tiers; `memory.high` only when request != limit.
    #[default]
    Legacy,
    /// Kubernetes 1.37, `memoryReservationPolicy: None` (its default): containers get
    /// `memory.min` and `memory.low` of "0"; with MemoryQoS off, cgroup v2 containers get
    /// `memory.high` "max".
    NoReservation,
    /// Kubernetes 1.37, `memoryReservationPolicy: TieredReservation`: the request becomes
    /// `memory.min` in Guaranteed pods and `memory.low` in the others.
    TieredReservation,
}

/// `DefaultMemoryThrottlingFactor` — pkg/kubelet/apis/config/v1beta1/defaults.go.
pub const DEFAULT_MEMORY_THROTTLING_FACTOR: f64 = 0.9;
/// `defaultPageSize` is `os.Getpagesize()` (kuberuntime_container_linux.go): 4 KiB on x86-64.
pub const DEFAULT_PAGE_SIZE: i64 = 4096;

/// The cgroup v2 `memory.max` text: the limit in bytes, or `"max"` for 0 (unset) and -1.
pub fn memory_max(limit_bytes: i64) -> String {
    if limit_bytes > 0 {
        limit_bytes.to_string()
    } else {
        CGROUP2_MAX.to_string()
    }
}

/// A container's MemoryQoS files; `None` means the kubelet does not set the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryQos {
    /// `memory.min`: the memory request, when non-zero.
    pub min: Option<i64>,
    /// `memory.high`: the throttling point between request and limit, page aligned.
    pub high: Option<i64>,
}

/// MemoryQoS for one container as Kubernetes 1.27–1.36 computes it
/// (`generateLinuxContainerResources`):
///
/// `memory.high = floor((req + (limit - req) × factor) / pageSize) × pageSize`, with node
/// allocatable memory in place of a missing limit, set only when `req != limit` and the result
/// exceeds the request. Float64 arithmetic in Go's order, so the result is bit-identical.
pub fn container_memory_qos(
    request: i64,
    limit: i64,
    allocatable: i64,
    throttling_factor: f64,
    page_size: i64,
) -> Result<MemoryQos, CgroupError> {
    check_page_size(page_size)?;
    if !(throttling_factor > 0.0 && throttling_factor <= 1.0) {
        return Err(CgroupError::InvalidThrottlingFactor);
    }
    let mut qos = MemoryQos::default();
    if request != 0 {
        qos.min = Some(request);
    }
    // Guaranteed containers (request == limit) get no memory.high.
    if request != limit {
        qos.high = memory_high(request, limit, allocatable, throttling_factor, page_size);
    }
    Ok(qos)
}

fn check_page_size(page_size: i64) -> Result<(), CgroupError> {
    if page_size > 0 && (page_size & (page_size - 1)) == 0 {
        Ok(())
    } else {
        Err(CgroupError::InvalidPageSize { bytes: page_size })
    }
}

/// The node side of MemoryQoS.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MemoryQosConfig {
    /// The `MemoryQoS` gate on a cgroup v2 node.
    pub enforce: bool,
    pub policy: MemoryQosPolicy,
    /// Node allocatable memory, memory.high's ceiling for containers without a limit.
    pub allocatable: i64,
    /// `memoryThrottlingFactor`; `None`: no memory.high (the 1.37 default).
    pub throttling_factor: Option<f64>,
    pub page_size: i64,
}

/// The `unified` entries MemoryQoS gives a container (`generateLinuxContainerResources`).
/// Under 1.37 a container without a memory request also gets memory.high, against its limit
/// or node allocatable.
pub fn container_memory_unified(
    config: &MemoryQosConfig,
    qos: QosClass,
    request: i64,
    limit: i64,
) -> Result<BTreeMap<String, String>, CgroupError> {
    let MemoryQosConfig {
        enforce,
        policy,
        allocatable,
        throttling_factor: factor,
        page_size,
    } = *config;
    let mut unified = BTreeMap::new();
    let mut put = |key: &str, value: String| {
        unified.insert(key.to_string(), value);
    };
    if !enforce {
        if policy != MemoryQosPolicy::Legacy {
            // 1.37 resets a stale throttle when MemoryQoS is off (cgroup v2 only; the caller
            // passes enforce=false on v1 too, and there the runtime ignores unified).
            put(CGROUP2_MEMORY_HIGH, CGROUP2_MAX.to_string());
        }
        return Ok(unified);
    }
    check_page_size(page_size)?;
    if let Some(f) = factor {
        if !(f > 0.0 && f <= 1.0) {
            return Err(CgroupError::InvalidThrottlingFactor);
        }
    }
    let wants_high = match policy {
        MemoryQosPolicy::Legacy => {
            if request != 0 {
                put(CGROUP2_MEMORY_MIN, request.to_string());
            }
            request != limit
        }
        MemoryQosPolicy::NoReservation | MemoryQosPolicy::TieredReservation => {
            if request != 0 && policy == MemoryQosPolicy::TieredReservation {
                let key = if qos == QosClass::Guaranteed {
                    CGROUP2_MEMORY_MIN
                } else {
                    CGROUP2_MEMORY_LOW
                };
                put(key, request.to_string());
            } else {
                put(CGROUP2_MEMORY_MIN, "0".to_string());
                put(CGROUP2_MEMORY_LOW, "0".to_string());
            }
            request != limit || request == 0
        }
    };
    if let (true, Some(factor)) = (wants_high, factor) {
        if let Some(high) = memory_high(request, limit, allocatable, factor, page_size) {
            put(CGROUP2_MEMORY_HIGH, high.to_string());
        }
    }
    Ok(unified)
}

/// `floor((req + (ceiling - req) × factor) / pageSize) × pageSize` with the limit, or node
/// allocatable when there is none, as the ceiling; only when it exceeds the request.
fn memory_high(
    request: i64,
    limit: i64,
    allocatable: i64,
    factor: f64,
    page_size: i64,
) -> Option<i64> {
    let ceiling = if limit != 0 {
        limit
    } else if allocatable > 0 {
        allocatable
    } else {
        return None;
    };
    let raw = (request as f64 + (ceiling as f64 - request as f64) * factor) / page_size as f64;
    // Go converts with int64(); a finite value in range converts the same way.
    let high = (raw.floor() as i64).saturating_mul(page_size);
    (high != 0 && high > request).then_some(high)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MI: i64 = 1 << 20;
    const GI: i64 = 1 << 30;

    fn qos(request: i64, limit: i64, allocatable: i64) -> MemoryQos {
        container_memory_qos(request, limit, allocatable, 0.9, 4096).unwrap()
    }

    #[test]
    fn memory_max_text() {
        assert_eq!(memory_max(GI), "1073741824");
        assert_eq!(memory_max(0), "max");
        assert_eq!(memory_max(-1), "max");
    }

    #[test]
    fn memory_high_sits_at_ninety_percent_of_the_headroom() {
        // 128Mi request, 256Mi limit: 128Mi + 0.9 × 128Mi = 243.2Mi = 255013683.2 → page floor.
        let got = qos(128 * MI, 256 * MI, 8 * GI);
        assert_eq!(got.min, Some(134_217_728));
        assert_eq!(got.high, Some(255_012_864));
        assert_eq!(got.high.unwrap() % 4096, 0);
    }

    #[test]
    fn guaranteed_and_edges() {
        // request == limit: memory.min only.
        assert_eq!(
            qos(GI, GI, 8 * GI),
            MemoryQos {
                min: Some(GI),
                high: None
            }
        );
        // No limit: allocatable stands in. 1Gi + 0.9 × 7Gi = 7.3Gi.
        let no_limit = qos(GI, 0, 8 * GI);
        assert_eq!(no_limit.high, Some(7_838_314_496));
        // No limit and no allocatable: nothing to throttle against.
        assert_eq!(qos(GI, 0, 0).high, None);
        // No request: no memory.min, memory.high from 0.
        assert_eq!(
            qos(0, GI, 8 * GI),
            MemoryQos {
                min: None,
                high: Some(966_365_184)
            }
        );
        // Nothing at all.
        assert_eq!(qos(0, 0, 0), MemoryQos::default());
        // A limit one page above the request: high rounds down to the request, so unset.
        assert_eq!(qos(GI, GI + 4096, 8 * GI).high, None);
    }

    #[test]
    fn rejects_bad_parameters() {
        let err = container_memory_qos(1, 2, 3, 0.9, 1000).unwrap_err();
        assert_eq!(err.code(), "E_INVALID_PAGE_SIZE");
        let err = container_memory_qos(1, 2, 3, 0.0, 4096).unwrap_err();
        assert_eq!(err.code(), "E_INVALID_THROTTLING_FACTOR");
        assert!(container_memory_qos(1, 2, 3, f64::NAN, 4096).is_err());
        assert!(container_memory_qos(1, 2, 3, 1.0, 4096).is_ok());
    }

    #[test]
    fn kubernetes_1_37_policies() {
        use MemoryQosPolicy::*;
        let unified = |policy, enforce, qos, request, limit, throttling_factor| {
            let config = MemoryQosConfig {
                enforce,
                policy,
                allocatable: 8 * GI,
                throttling_factor,
                page_size: 4096,
            };
            container_memory_unified(&config, qos, request, limit)
                .unwrap()
                .into_iter()
                .collect::<Vec<(String, String)>>()
        };
        let pairs = |entries: &[(&str, &str)]| {
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>()
        };
        // Default 1.37 node: None policy, no factor → protections zeroed, no memory.high.
        assert_eq!(
            unified(NoReservation, true, QosClass::Burstable, GI, 2 * GI, None),
            pairs(&[("memory.low", "0"), ("memory.min", "0")])
        );
        // Tiered: Guaranteed gets memory.min, Burstable memory.low.
        assert_eq!(
            unified(
                TieredReservation,
                true,
                QosClass::Guaranteed,
                GI,
                GI,
                Some(0.9)
            ),
            pairs(&[("memory.min", "1073741824")])
        );
        assert_eq!(
            unified(
                TieredReservation,
                true,
                QosClass::Burstable,
                128 * MI,
                256 * MI,
                Some(0.9)
            ),
            pairs(&[("memory.high", "255012864"), ("memory.low", "134217728")])
        );
        // 1.37 throttles containers without a request too (against allocatable here).
        assert_eq!(
            unified(NoReservation, true, QosClass::BestEffort, 0, 0, Some(0.9)),
            pairs(&[
                ("memory.high", "7730937856"),
                ("memory.low", "0"),
                ("memory.min", "0")
            ])
        );
        // Legacy matches container_memory_qos.
        assert_eq!(
            unified(
                Legacy,
                true,
                QosClass::Burstable,
                128 * MI,
                256 * MI,
                Some(0.9)
            ),
            pairs(&[("memory.high", "255012864"), ("memory.min", "134217728")])
        );
        assert!(unified(Legacy, true, QosClass::BestEffort, 0, 0, Some(0.9)).is_empty());
        // MemoryQoS off: 1.37 resets memory.high, legacy leaves unified alone.
        assert_eq!(
            unified(NoReservation, false, QosClass::Burstable, GI, 2 * GI, None),
            pairs(&[("memory.high", "max")])
        );
        assert!(unified(Legacy, false, QosClass::Burstable, GI, 2 * GI, Some(0.9)).is_empty());
        let bad = MemoryQosConfig {
            enforce: true,
            policy: Legacy,
            allocatable: 3,
            throttling_factor: Some(2.0),
            page_size: 4096,
        };
        let err = container_memory_unified(&bad, QosClass::Burstable, 1, 2).unwrap_err();
        assert_eq!(err.code(), "E_INVALID_THROTTLING_FACTOR");
    }
}

//! Pod and QoS-tier cgroup values: `ResourceConfigForPod` of kubernetes
//! `pkg/kubelet/cm/helpers_linux.go`, `setCPUCgroupConfig` / `setMemoryQoS` of
//! `pkg/kubelet/cm/qos_container_manager_linux.go`, and the cgroup v2 files they become
//! (`toResources` in `cgroup_manager_linux.go`, written by runc's fs2 driver).

use crate::cpu::{
    cpu_weight_linear, fs2_cpu_max, milli_cpu_to_quota, milli_cpu_to_shares, MIN_SHARES,
};
use crate::memory::{
    memory_max, MemoryQosPolicy, CGROUP2_MEMORY_HIGH, CGROUP2_MEMORY_LOW, CGROUP2_MEMORY_MIN,
};
use crate::pod_resources::{pod_requests, PodResourcesOptions, PodTotals};
use crate::pod_spec::{PodSpec, ResourceList, CPU, HUGEPAGES_PREFIX, MEMORY};
use crate::qos::{pod_qos, QosClass};
use crate::{CgroupError, Quantity};
use std::collections::BTreeMap;

/// `ResourceConfig` (pkg/kubelet/cm/types.go): `None` leaves the control untouched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceConfig {
    /// `CPUShares` (cgroup v1 cpu.shares).
    pub cpu_shares: Option<u64>,
    /// `CPUQuota` in µs; -1 is unlimited.
    pub cpu_quota: Option<i64>,
    /// `CPUPeriod` in µs.
    pub cpu_period: Option<u64>,
    /// `Memory` limit in bytes.
    pub memory: Option<i64>,
    /// `HugePageLimit`: page size in bytes → limit in bytes.
    pub hugepage_limits: BTreeMap<i64, i64>,
    /// `Unified`: cgroup v2 files set verbatim (memory.min, …).
    pub unified: BTreeMap<String, String>,
}

/// The cgroup v2 files a [`ResourceConfig`] writes (runc fs2). `None`: the file is not written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CgroupFiles {
    /// `cpu.weight`, from the shares by the kubelet's linear `getCPUWeight`.
    pub cpu_weight: Option<u64>,
    /// `cpu.max`: `"<quota> <period>"` or `"max <period>"`.
    pub cpu_max: Option<String>,
    /// `memory.max`: bytes or `"max"`.
    pub memory_max: Option<String>,
    /// `memory.min`, from `Unified`.
    pub memory_min: Option<String>,
    /// `memory.low`, from `Unified` (Kubernetes 1.37 TieredReservation).
    pub memory_low: Option<String>,
    /// `memory.high`, from `Unified`.
    pub memory_high: Option<String>,
}

impl ResourceConfig {
    /// The cgroup v2 files this config writes (`toResources` + runc fs2 `setCpu`/`setMemory`).
    pub fn cgroup_v2_files(&self) -> CgroupFiles {
        let quota = self.cpu_quota.unwrap_or(0);
        let period = self.cpu_period.unwrap_or(0);
        let cpu_max = fs2_cpu_max(quota, period);
        CgroupFiles {
            cpu_weight: self.cpu_shares.map(cpu_weight_linear),
            cpu_max,
            memory_max: self.memory.filter(|m| *m != 0).map(memory_max),
            memory_min: self.unified.get(CGROUP2_MEMORY_MIN).cloned(),
            memory_low: self.unified.get(CGROUP2_MEMORY_LOW).cloned(),
            memory_high: self.unified.get(CGROUP2_MEMORY_HIGH).cloned(),
        }
    }
}

/// `HugePageLimits`: `hugepages-<size>` requests keyed by page size in bytes.
fn hugepage_limits(requests: &ResourceList) -> Result<BTreeMap<i64, i64>, CgroupError> {
    let mut limits = BTreeMap::new();
    for (name, quantity) in requests {
        let Some(size) = name.strip_prefix(HUGEPAGES_PREFIX) else {
            continue;
        };
        // A malformed page size is skipped, as HugePageSizeFromResourceName errors are.
        let Ok(page) = Quantity::parse(size).and_then(|q| q.value()) else {
            continue;
        };
        let value = quantity.value()?;
        let total = limits
            .get(&page)
            .copied()
            .unwrap_or(0i64)
            .saturating_add(value);
        limits.insert(page, total);
    }
    Ok(limits)
}

/// `ResourceConfigForPod(pod, enforceCPULimits, cpuPeriod, enforceMemoryQoS,
/// memoryReservationPolicy)` without pod-level resources: Guaranteed pods get shares, quota,
/// period and memory; Burstable pods get shares, plus quota/period (memory) only when every
/// container, init containers included, declares a CPU (memory) limit; BestEffort pods get 2
/// shares. Under MemoryQoS the pod's memory request becomes `memory.min` (1.27–1.36), or with
/// 1.37's TieredReservation `memory.min` (Guaranteed) / `memory.low` (others).
pub fn resource_config_for_pod(
    pod: &PodSpec,
    enforce_cpu_limits: bool,
    cpu_period_us: u64,
    enforce_memory_qos: bool,
    memory_qos_policy: MemoryQosPolicy,
) -> Result<ResourceConfig, CgroupError> {
    let totals = PodTotals::of(pod)?;
    resource_config_from(
        pod,
        &totals,
        || pod_qos(pod),
        enforce_cpu_limits,
        cpu_period_us,
        enforce_memory_qos,
        memory_qos_policy,
    )
}

/// [`resource_config_for_pod`] given the pod's totals; `qos` is asked where upstream computes
/// the class, so that errors come in the same order.
pub(crate) fn resource_config_from(
    pod: &PodSpec,
    totals: &PodTotals,
    qos: impl FnOnce() -> Result<QosClass, CgroupError>,
    enforce_cpu_limits: bool,
    cpu_period_us: u64,
    enforce_memory_qos: bool,
    memory_qos_policy: MemoryQosPolicy,
) -> Result<ResourceConfig, CgroupError> {
    let PodTotals { requests, limits } = totals;
    // Every init and regular container's own limit (podutil.ContainerIter in 1.37).
    let declared = |name: &str| {
        pod.all_containers()
            .all(|c| c.resources.limits.get(name).is_some_and(|q| !q.is_zero()))
    };
    let (cpu_limits_declared, memory_limits_declared) = (declared(CPU), declared(MEMORY));

    let cpu_request = requests.get(CPU).map_or(Ok(0), Quantity::milli_value)?;
    let cpu_limit = limits.get(CPU).map_or(Ok(0), Quantity::milli_value)?;
    let memory_limit = limits.get(MEMORY).map_or(Ok(0), Quantity::value)?;

    let cpu_shares = milli_cpu_to_shares(cpu_request);
    let mut cpu_quota = milli_cpu_to_quota(cpu_limit, cpu_period_us)?;
    // "quota is not capped when cfs quota is disabled"
    if !enforce_cpu_limits {
        cpu_quota = -1;
    }

    let qos = qos()?;
    let mut config = ResourceConfig::default();
    match qos {
        QosClass::Guaranteed => {
            config.cpu_shares = Some(cpu_shares);
            config.cpu_quota = Some(cpu_quota);
            config.cpu_period = Some(cpu_period_us);
            config.memory = Some(memory_limit);
        }
        QosClass::Burstable => {
            config.cpu_shares = Some(cpu_shares);
            if cpu_limits_declared {
                config.cpu_quota = Some(cpu_quota);
                config.cpu_period = Some(cpu_period_us);
            }
            if memory_limits_declared {
                config.memory = Some(memory_limit);
            }
        }
        QosClass::BestEffort => config.cpu_shares = Some(MIN_SHARES),
    }
    config.hugepage_limits = hugepage_limits(requests)?;
    if enforce_memory_qos {
        let memory_request = requests.get(MEMORY).map_or(Ok(0), Quantity::value)?;
        let key = match memory_qos_policy {
            MemoryQosPolicy::Legacy => Some(CGROUP2_MEMORY_MIN),
            MemoryQosPolicy::NoReservation => None,
            MemoryQosPolicy::TieredReservation if qos == QosClass::Guaranteed => {
                Some(CGROUP2_MEMORY_MIN)
            }
            MemoryQosPolicy::TieredReservation => Some(CGROUP2_MEMORY_LOW),
        };
        if let (Some(key), true) = (key, memory_request > 0) {
            config
                .unified
                .insert(key.to_string(), memory_request.to_string());
        }
    }
    Ok(config)
}

/// The QoS tier cgroups of a node: `/kubepods` (the Guaranteed root), `burstable`, `besteffort`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QosTierConfigs {
    /// `/kubepods`: `memory.min` under MemoryQoS (Guaranteed + Burstable requests).
    pub kubepods: ResourceConfig,
    /// `/kubepods/burstable`: shares of the summed Burstable CPU requests.
    pub burstable: ResourceConfig,
    /// `/kubepods/besteffort`: always 2 shares.
    pub besteffort: ResourceConfig,
}

/// `setCPUCgroupConfig` and, with `enforce_memory_qos`, `setMemoryQoS` over the active pods.
/// 1.27–1.36: `memory.min` of Burstable requests on `burstable` and of Guaranteed + Burstable
/// on `/kubepods`, each when positive. 1.37 TieredReservation: `/kubepods` gets `memory.min`
/// G+B and `memory.low` B, `burstable` gets `memory.low` B, even when 0; NoReservation: none.
pub fn qos_tier_configs(
    pods: &[PodSpec],
    enforce_memory_qos: bool,
    memory_qos_policy: MemoryQosPolicy,
) -> Result<QosTierConfigs, CgroupError> {
    let mut tiers = TierSums::default();
    for pod in pods {
        let qos = pod_qos(pod)?;
        if qos == QosClass::BestEffort {
            continue;
        }
        tiers.add(qos, &pod_requests(pod, &PodResourcesOptions::default())?)?;
    }
    Ok(tiers.configs(enforce_memory_qos, memory_qos_policy))
}

/// The sums the QoS tier cgroups are made of.
#[derive(Debug, Default)]
pub(crate) struct TierSums {
    burstable_milli_cpu: i64,
    burstable_memory: i64,
    guaranteed_memory: i64,
}

impl TierSums {
    /// Counts a pod of class `qos` with `PodRequests` `requests`.
    pub(crate) fn add(
        &mut self,
        qos: QosClass,
        requests: &ResourceList,
    ) -> Result<(), CgroupError> {
        let TierSums {
            burstable_milli_cpu,
            burstable_memory,
            guaranteed_memory,
        } = self;
        if qos == QosClass::BestEffort {
            return Ok(());
        }
        let memory = requests.get(MEMORY).map_or(Ok(0), Quantity::value)?;
        if qos == QosClass::Burstable {
            let cpu = requests.get(CPU).map_or(Ok(0), Quantity::milli_value)?;
            *burstable_milli_cpu = burstable_milli_cpu.saturating_add(cpu);
            *burstable_memory = burstable_memory.saturating_add(memory);
        } else {
            *guaranteed_memory = guaranteed_memory.saturating_add(memory);
        }
        Ok(())
    }

    /// `setCPUCgroupConfig` and `setMemoryQoS` over the pods counted.
    pub(crate) fn configs(
        &self,
        enforce_memory_qos: bool,
        memory_qos_policy: MemoryQosPolicy,
    ) -> QosTierConfigs {
        let TierSums {
            burstable_milli_cpu,
            burstable_memory,
            guaranteed_memory,
        } = *self;
        let mut configs = QosTierConfigs::default();
        configs.besteffort.cpu_shares = Some(MIN_SHARES);
        configs.burstable.cpu_shares = Some(milli_cpu_to_shares(burstable_milli_cpu));
        let root_min = guaranteed_memory.saturating_add(burstable_memory);
        let set = |config: &mut ResourceConfig, key: &str, value: i64| {
            config.unified.insert(key.to_string(), value.to_string());
        };
        match (enforce_memory_qos, memory_qos_policy) {
            (false, _) | (true, MemoryQosPolicy::NoReservation) => {}
            (true, MemoryQosPolicy::Legacy) => {
                if root_min > 0 {
                    set(&mut configs.kubepods, CGROUP2_MEMORY_MIN, root_min);
                }
                if burstable_memory > 0 {
                    set(&mut configs.burstable, CGROUP2_MEMORY_MIN, burstable_memory);
                }
            }
            (true, MemoryQosPolicy::TieredReservation) => {
                set(&mut configs.kubepods, CGROUP2_MEMORY_MIN, root_min);
                set(&mut configs.kubepods, CGROUP2_MEMORY_LOW, burstable_memory);
                set(&mut configs.burstable, CGROUP2_MEMORY_LOW, burstable_memory);
            }
        }
        configs
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::QUOTA_PERIOD;
    use crate::memory::MemoryQosPolicy::{Legacy, NoReservation, TieredReservation};
    use crate::pod_spec::{resource_list, Container};

    fn pod(containers: Vec<Container>) -> PodSpec {
        PodSpec::new("u", containers)
    }

    fn c(name: &str, requests: &[(&str, &str)], limits: &[(&str, &str)]) -> Container {
        Container::new(name, requests, limits).unwrap()
    }

    #[test]
    fn guaranteed_pod_gets_everything() {
        let p = pod(vec![c(
            "a",
            &[("cpu", "500m"), ("memory", "1Gi")],
            &[("cpu", "500m"), ("memory", "1Gi")],
        )]);
        let config = resource_config_for_pod(&p, true, QUOTA_PERIOD, true, Legacy).unwrap();
        assert_eq!(config.cpu_shares, Some(512));
        assert_eq!(config.cpu_quota, Some(50_000));
        assert_eq!(config.cpu_period, Some(100_000));
        assert_eq!(config.memory, Some(1 << 30));
        let files = config.cgroup_v2_files();
        assert_eq!(files.cpu_weight, Some(20));
        assert_eq!(files.cpu_max.as_deref(), Some("50000 100000"));
        assert_eq!(files.memory_max.as_deref(), Some("1073741824"));
        assert_eq!(files.memory_min.as_deref(), Some("1073741824"));
        // CFS quota disabled: unlimited.
        let free = resource_config_for_pod(&p, false, QUOTA_PERIOD, false, Legacy).unwrap();
        assert_eq!(free.cpu_quota, Some(-1));
        assert_eq!(
            free.cgroup_v2_files().cpu_max.as_deref(),
            Some("max 100000")
        );
        assert!(free.unified.is_empty());
    }

    #[test]
    fn burstable_pod_gets_limits_only_when_every_container_declares_them() {
        let mut p = pod(vec![
            c(
                "a",
                &[("cpu", "250m"), ("memory", "1Gi")],
                &[("cpu", "1"), ("memory", "2Gi")],
            ),
            c("b", &[("cpu", "250m")], &[("cpu", "1")]),
        ]);
        let config = resource_config_for_pod(&p, true, QUOTA_PERIOD, false, Legacy).unwrap();
        assert_eq!(config.cpu_shares, Some(512));
        assert_eq!(config.cpu_quota, Some(200_000));
        assert_eq!(config.memory, None, "b declares no memory limit");
        // An init container without a CPU limit drops the pod's quota too.
        p.init_containers = vec![c("init", &[("cpu", "100m")], &[])];
        let config = resource_config_for_pod(&p, true, QUOTA_PERIOD, false, Legacy).unwrap();
        assert_eq!((config.cpu_quota, config.cpu_period), (None, None));
        let files = config.cgroup_v2_files();
        assert_eq!(files.cpu_max, None);
        assert_eq!(files.memory_max, None);
    }

    #[test]
    fn best_effort_pod_gets_two_shares() {
        let p = pod(vec![c("a", &[], &[])]);
        let config = resource_config_for_pod(&p, true, QUOTA_PERIOD, true, Legacy).unwrap();
        assert_eq!(
            config,
            ResourceConfig {
                cpu_shares: Some(2),
                ..Default::default()
            }
        );
        assert_eq!(config.cgroup_v2_files().cpu_weight, Some(1));
    }

    #[test]
    fn overhead_and_hugepages() {
        let mut p = pod(vec![c(
            "a",
            &[("cpu", "1"), ("memory", "1Gi"), ("hugepages-2Mi", "4Mi")],
            &[("cpu", "1"), ("memory", "1Gi"), ("hugepages-2Mi", "4Mi")],
        )]);
        p.overhead = resource_list(&[("cpu", "250m"), ("memory", "120Mi")]).unwrap();
        let config = resource_config_for_pod(&p, true, 50_000, false, Legacy).unwrap();
        assert_eq!(config.cpu_shares, Some(1280));
        assert_eq!(config.cpu_quota, Some(62_500));
        assert_eq!(config.cpu_period, Some(50_000));
        assert_eq!(config.memory, Some((1 << 30) + 120 * (1 << 20)));
        assert_eq!(config.hugepage_limits.get(&(2 << 20)), Some(&(4 << 20)));
        let err = resource_config_for_pod(&p, true, 10, false, Legacy).unwrap_err();
        assert_eq!(err.code(), "E_INVALID_PERIOD");
    }

    #[test]
    fn qos_tiers() {
        let guaranteed = pod(vec![c(
            "a",
            &[("cpu", "1"), ("memory", "1Gi")],
            &[("cpu", "1"), ("memory", "1Gi")],
        )]);
        let burstable = pod(vec![c("a", &[("cpu", "500m"), ("memory", "256Mi")], &[])]);
        let burstable2 = pod(vec![c("a", &[("cpu", "1500m")], &[])]);
        let best_effort = pod(vec![c("a", &[], &[])]);
        let tiers = qos_tier_configs(
            &[
                guaranteed.clone(),
                burstable.clone(),
                burstable2,
                best_effort,
            ],
            true,
            Legacy,
        )
        .unwrap();
        assert_eq!(tiers.besteffort.cpu_shares, Some(2));
        assert_eq!(tiers.burstable.cpu_shares, Some(2048));
        assert_eq!(
            tiers
                .burstable
                .unified
                .get("memory.min")
                .map(String::as_str),
            Some("268435456")
        );
        assert_eq!(
            tiers.kubepods.unified.get("memory.min").map(String::as_str),
            Some("1342177280")
        );
        // No pods: burstable still gets MinShares.
        let empty = qos_tier_configs(&[], true, Legacy).unwrap();
        assert_eq!(empty.burstable.cpu_shares, Some(2));
        assert!(empty.kubepods.unified.is_empty());
    }

    #[test]
    fn kubernetes_1_37_memory_reservation() {
        let guaranteed = pod(vec![c(
            "a",
            &[("cpu", "1"), ("memory", "1Gi")],
            &[("cpu", "1"), ("memory", "1Gi")],
        )]);
        let burstable = pod(vec![c("a", &[("memory", "256Mi")], &[])]);
        let config =
            resource_config_for_pod(&guaranteed, true, QUOTA_PERIOD, true, TieredReservation)
                .unwrap();
        assert_eq!(
            config.cgroup_v2_files().memory_min.as_deref(),
            Some("1073741824")
        );
        let config =
            resource_config_for_pod(&burstable, true, QUOTA_PERIOD, true, TieredReservation)
                .unwrap();
        let files = config.cgroup_v2_files();
        assert_eq!(
            (files.memory_min, files.memory_low.as_deref()),
            (None, Some("268435456"))
        );
        let config =
            resource_config_for_pod(&burstable, true, QUOTA_PERIOD, true, NoReservation).unwrap();
        assert!(config.unified.is_empty());

        let tiers = qos_tier_configs(&[guaranteed, burstable], true, TieredReservation).unwrap();
        let get = |c: &ResourceConfig, k: &str| c.unified.get(k).cloned();
        assert_eq!(
            get(&tiers.kubepods, "memory.min").as_deref(),
            Some("1342177280")
        );
        assert_eq!(
            get(&tiers.kubepods, "memory.low").as_deref(),
            Some("268435456")
        );
        assert_eq!(
            get(&tiers.burstable, "memory.low").as_deref(),
            Some("268435456")
        );
        let zero = qos_tier_configs(&[], true, TieredReservation).unwrap();
        assert_eq!(get(&zero.burstable, "memory.low").as_deref(), Some("0"));
        assert!(qos_tier_configs(&[], true, NoReservation)
            .unwrap()
            .kubepods
            .unified
            .is_empty());
    }
}

//! Batch entry points for the wasm binding: everything about one pod, or many pods on one
//! node, per call.

use crate::cgroup_path::{pod_cgroup_name, qos_cgroup_name, CgroupDriver, CgroupName};
use crate::container::{container_resources_with, LinuxContainerResources};
use crate::cpu::{check_period, WeightFormula, QUOTA_PERIOD};
use crate::memory::{
    container_memory_unified, MemoryQosConfig, MemoryQosPolicy, DEFAULT_MEMORY_THROTTLING_FACTOR,
    DEFAULT_PAGE_SIZE,
};
use crate::oci::{cgroups_path_prefix, container_namespaces, OciFragment};
use crate::pod_cgroup::{
    resource_config_from, CgroupFiles, QosTierConfigs, ResourceConfig, TierSums,
};
use crate::pod_resources::{scheduler_requests_from, PodTotals, SchedulerRequests};
use crate::pod_spec::{PodSpec, ResourceList, Resources};
use crate::qos::{pod_qos, QosClass};
use crate::CgroupError;

/// The node and kubelet settings the math depends on.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeConfig {
    /// Node memory capacity in bytes (`machineInfo.MemoryCapacity`), for OOM scores. Must be > 0.
    pub memory_capacity: i64,
    /// Node allocatable memory in bytes, `memory.high`'s ceiling for containers without a limit.
    pub allocatable_memory: i64,
    /// `cpuCFSQuota` (default true): enforce CPU limits with CFS quota.
    pub cpu_cfs_quota: bool,
    /// `cpuCFSQuotaPeriod` in µs (default 100000). Honoured as with the `CPUCFSQuotaPeriod` gate
    /// on (GA in 1.36); before that the kubelet used 100000 whatever was configured.
    pub cpu_cfs_quota_period_us: u64,
    /// The `MemoryQoS` feature gate (cgroup v2 only; default off, as before 1.37).
    pub enforce_memory_qos: bool,
    /// Which kubelet's MemoryQoS (default: 1.27–1.36).
    pub memory_qos_policy: MemoryQosPolicy,
    /// `memoryThrottlingFactor` (default 0.9; Kubernetes 1.37 defaults to none).
    pub memory_throttling_factor: Option<f64>,
    /// The OS page size in bytes (default 4096).
    pub page_size: i64,
    /// `cgroupDriver` (default systemd).
    pub cgroup_driver: CgroupDriver,
    /// cgroup v2 (default true).
    pub cgroup_v2: bool,
    /// `singleProcessOOMKill` (default false: on v2 the kubelet sets memory.oom.group=1).
    pub single_process_oom_kill: bool,
    /// The runtime's shares → cpu.weight conversion for containers.
    pub weight_formula: WeightFormula,
    /// Apply the API server's defaulting (requests default to limits) before computing.
    pub apply_api_defaults: bool,
}

impl Default for NodeConfig {
    fn default() -> Self {
        NodeConfig {
            memory_capacity: 0,
            allocatable_memory: 0,
            cpu_cfs_quota: true,
            cpu_cfs_quota_period_us: QUOTA_PERIOD,
            enforce_memory_qos: false,
            memory_qos_policy: MemoryQosPolicy::Legacy,
            memory_throttling_factor: Some(DEFAULT_MEMORY_THROTTLING_FACTOR),
            page_size: DEFAULT_PAGE_SIZE,
            cgroup_driver: CgroupDriver::Systemd,
            cgroup_v2: true,
            single_process_oom_kill: false,
            weight_formula: WeightFormula::Linear,
            apply_api_defaults: true,
        }
    }
}

impl NodeConfig {
    /// The MemoryQoS side of this node; enforced only on cgroup v2.
    pub fn memory_qos(&self) -> MemoryQosConfig {
        MemoryQosConfig {
            enforce: self.enforce_memory_qos && self.cgroup_v2,
            policy: self.memory_qos_policy,
            allocatable: self.allocatable_memory,
            throttling_factor: self.memory_throttling_factor,
            page_size: self.page_size,
        }
    }

    fn validate(&self) -> Result<(), CgroupError> {
        check_period(self.cpu_cfs_quota_period_us)?;
        if self.memory_capacity <= 0 {
            return Err(CgroupError::InvalidCapacity {
                bytes: self.memory_capacity,
            });
        }
        if self.allocatable_memory < 0 {
            return Err(CgroupError::InvalidCapacity {
                bytes: self.allocatable_memory,
            });
        }
        // memory.rs checks page size and throttling factor; check them here too so that a bad
        // node fails once, not per container.
        let enforced = MemoryQosConfig {
            enforce: true,
            ..self.memory_qos()
        };
        container_memory_unified(&enforced, QosClass::Burstable, 0, 0)?;
        Ok(())
    }
}

/// One container's values.
#[derive(Debug, Clone, PartialEq)]
pub struct ContainerCgroups {
    pub name: String,
    /// An init container (sidecar or not).
    pub init: bool,
    /// A restartable init container.
    pub sidecar: bool,
    /// What the kubelet sends over CRI.
    pub resources: LinuxContainerResources,
    /// The runtime-spec fragment (container id = container name).
    pub oci: OciFragment,
    /// The cgroup v2 files the runtime writes (weight by `NodeConfig::weight_formula`).
    pub files: CgroupFiles,
}

/// Everything about one pod.
#[derive(Debug, Clone, PartialEq)]
pub struct PodCgroups {
    pub uid: String,
    pub qos: QosClass,
    /// `PodRequests`, overhead included.
    pub requests: ResourceList,
    /// `PodLimits`, overhead added to set limits.
    pub limits: ResourceList,
    /// What the scheduler counts, with the non-zero defaults.
    pub scheduler: SchedulerRequests,
    pub cgroup_name: CgroupName,
    /// The pod cgroup's path for the node's driver.
    pub cgroup_path: String,
    /// `ResourceConfigForPod`.
    pub config: ResourceConfig,
    /// The pod cgroup's v2 files (kubelet: linear weight).
    pub files: CgroupFiles,
    /// Init containers in order, then regular containers.
    pub containers: Vec<ContainerCgroups>,
}

/// All values for one pod on `node`: validation, QoS, requests/limits, pod cgroup, and each
/// container's CRI resources, OCI fragment and cgroup files.
pub fn pod_cgroups(pod: &PodSpec, node: &NodeConfig) -> Result<PodCgroups, CgroupError> {
    node.validate()?;
    pod_cgroups_checked(pod, node)
}

fn pod_cgroups_checked(pod: &PodSpec, node: &NodeConfig) -> Result<PodCgroups, CgroupError> {
    let defaulted;
    let pod = if node.apply_api_defaults && needs_api_defaults(pod) {
        defaulted = pod.clone().with_api_defaults();
        &defaulted
    } else {
        pod
    };
    // Each value is computed once and passed down; the fallible steps keep upstream's order so
    // that a pod with several faults reports the same one.
    pod.validate()?;
    let qos = pod_qos(pod)?;
    let cgroup_name = pod_cgroup_name(qos, &pod.uid)?;
    let cgroup_path = cgroup_name.path(node.cgroup_driver)?;
    let totals = PodTotals::of(pod)?;
    let config = resource_config_from(
        pod,
        &totals,
        || Ok(qos),
        node.cpu_cfs_quota,
        node.cpu_cfs_quota_period_us,
        node.enforce_memory_qos && node.cgroup_v2,
        node.memory_qos_policy,
    )?;
    let files = config.cgroup_v2_files();
    let namespaces =
        container_namespaces(&pod.namespaces, pod.namespaces.sandbox_pid, node.cgroup_v2);
    let path_prefix = cgroups_path_prefix(&cgroup_name, node.cgroup_driver);
    let mut containers = Vec::with_capacity(pod.containers.len() + pod.init_containers.len());
    let ordered = pod
        .init_containers
        .iter()
        .map(|c| (c, true))
        .chain(pod.containers.iter().map(|c| (c, false)));
    for (container, init) in ordered {
        let resources = container_resources_with(pod, container, node, &mut || Ok(qos))?;
        let oci = OciFragment::from_cri_under(
            &resources,
            namespaces.clone(),
            &path_prefix,
            &container.name,
        );
        let files = oci.cgroup_v2_files(node.weight_formula);
        containers.push(ContainerCgroups {
            name: container.name.clone(),
            init,
            sidecar: init && container.is_restartable(),
            resources,
            oci,
            files,
        });
    }
    let scheduler = scheduler_requests_from(pod, &totals.requests)?;
    let PodTotals { requests, limits } = totals;
    Ok(PodCgroups {
        uid: pod.uid.clone(),
        qos,
        requests,
        limits,
        scheduler,
        cgroup_name,
        cgroup_path,
        config,
        files,
        containers,
    })
}

/// Whether API defaulting would change the pod: some container limits a resource it does not
/// request. Most pods need no copy.
fn needs_api_defaults(pod: &PodSpec) -> bool {
    pod.all_containers().any(|c| {
        let Resources { requests, limits } = &c.resources;
        limits.keys().any(|name| !requests.contains_key(name))
    })
}

/// A QoS tier cgroup of the node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierCgroup {
    pub path: String,
    pub config: ResourceConfig,
    pub files: CgroupFiles,
}

/// Many pods on one node: each pod's values or its own error, plus the QoS tier cgroups
/// computed over the pods that are valid.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeCgroups {
    pub pods: Vec<Result<PodCgroups, CgroupError>>,
    /// `/kubepods` (Guaranteed pods' parent).
    pub kubepods: TierCgroup,
    pub burstable: TierCgroup,
    pub besteffort: TierCgroup,
}

/// The QoS tier cgroups of a node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeTiers {
    /// `/kubepods` (Guaranteed pods' parent).
    pub kubepods: TierCgroup,
    pub burstable: TierCgroup,
    pub besteffort: TierCgroup,
}

/// Pods of one node, one at a time: each pod's values as it comes, then the QoS tiers over the
/// valid ones. For callers that pass each result on (the wasm binding writes it out and drops
/// it) instead of holding a whole [`NodeCgroups`].
#[derive(Debug)]
pub struct NodeBatch<'n> {
    node: &'n NodeConfig,
    sums: TierSums,
    /// The first pod that could not be counted toward the tiers.
    tier_error: Option<CgroupError>,
}

impl<'n> NodeBatch<'n> {
    /// Checks `node` once for the whole batch.
    pub fn new(node: &'n NodeConfig) -> Result<Self, CgroupError> {
        node.validate()?;
        Ok(NodeBatch {
            node,
            sums: TierSums::default(),
            tier_error: None,
        })
    }

    /// [`pod_cgroups`] for one pod of the batch; a valid pod counts toward the tiers.
    pub fn pod(&mut self, pod: &PodSpec) -> Result<PodCgroups, CgroupError> {
        let computed = pod_cgroups_checked(pod, self.node)?;
        if self.tier_error.is_none() {
            if let Err(err) = self.sums.add(computed.qos, &computed.requests) {
                self.tier_error = Some(err);
            }
        }
        Ok(computed)
    }

    /// The QoS tier cgroups over the valid pods seen so far.
    pub fn tiers(&self) -> Result<NodeTiers, CgroupError> {
        if let Some(err) = &self.tier_error {
            return Err(err.clone());
        }
        let node = self.node;
        let QosTierConfigs {
            kubepods,
            burstable,
            besteffort,
        } = self.sums.configs(
            node.enforce_memory_qos && node.cgroup_v2,
            node.memory_qos_policy,
        );
        let tier = |qos: QosClass, config: ResourceConfig| -> Result<TierCgroup, CgroupError> {
            Ok(TierCgroup {
                path: qos_cgroup_name(qos).path(node.cgroup_driver)?,
                files: config.cgroup_v2_files(),
                config,
            })
        };
        Ok(NodeTiers {
            kubepods: tier(QosClass::Guaranteed, kubepods)?,
            burstable: tier(QosClass::Burstable, burstable)?,
            besteffort: tier(QosClass::BestEffort, besteffort)?,
        })
    }
}

/// The batch entry point for a node: fails only for an invalid `node`; a bad pod yields an
/// error in its own slot and does not count toward the QoS tiers.
pub fn node_cgroups(pods: &[PodSpec], node: &NodeConfig) -> Result<NodeCgroups, CgroupError> {
    let mut batch = NodeBatch::new(node)?;
    let pods = pods.iter().map(|pod| batch.pod(pod)).collect();
    let NodeTiers {
        kubepods,
        burstable,
        besteffort,
    } = batch.tiers()?;
    Ok(NodeCgroups {
        pods,
        kubepods,
        burstable,
        besteffort,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pod_spec::Container;

    const GI: i64 = 1 << 30;

    fn node() -> NodeConfig {
        NodeConfig {
            memory_capacity: 16 * GI,
            allocatable_memory: 15 * GI,
            ..NodeConfig::default()
        }
    }

    fn web_pod() -> PodSpec {
        let mut pod = PodSpec::new(
            "1234-abcd",
            vec![Container::new(
                "app",
                &[("cpu", "500m"), ("memory", "1Gi")],
                &[("memory", "2Gi")],
            )
            .unwrap()],
        );
        pod.init_containers =
            vec![
                Container::new("proxy", &[("cpu", "100m"), ("memory", "64Mi")], &[])
                    .unwrap()
                    .restartable(),
            ];
        pod
    }

    #[test]
    fn one_pod_end_to_end() {
        let got = pod_cgroups(&web_pod(), &node()).unwrap();
        assert_eq!(got.qos, QosClass::Burstable);
        assert_eq!(
            got.cgroup_path,
            "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_abcd.slice"
        );
        assert_eq!(got.requests["cpu"].to_string(), "600m");
        assert_eq!(got.requests["memory"].to_string(), "1088Mi");
        assert_eq!(got.config.cpu_shares, Some(614));
        assert_eq!(got.config.cpu_quota, None);
        assert_eq!(
            got.config.memory, None,
            "the sidecar declares no memory limit"
        );
        assert_eq!(got.files.cpu_weight, Some(24));
        assert_eq!(got.scheduler.non_zero_milli_cpu, 600);
        let names: Vec<(&str, bool, bool)> = got
            .containers
            .iter()
            .map(|c| (c.name.as_str(), c.init, c.sidecar))
            .collect();
        assert_eq!(names, [("proxy", true, true), ("app", false, false)]);
        let app = &got.containers[1];
        assert_eq!(app.resources.cpu_shares, 512);
        assert_eq!(app.files.cpu_max.as_deref(), Some("max 100000"));
        assert_eq!(app.files.memory_max.as_deref(), Some("2147483648"));
        // Sidecar: own 64Mi would score 997; the smallest regular container (1Gi) scores 938.
        assert_eq!(got.containers[0].resources.oom_score_adj, 938);
        assert!(app.oci.to_json().contains("\"oomScoreAdj\":938"));
    }

    #[test]
    fn api_defaults_make_limit_only_pods_guaranteed() {
        let pod = PodSpec::new(
            "u",
            vec![Container::new("a", &[], &[("cpu", "1"), ("memory", "1Gi")]).unwrap()],
        );
        assert_eq!(
            pod_cgroups(&pod, &node()).unwrap().qos,
            QosClass::Guaranteed
        );
        let raw = NodeConfig {
            apply_api_defaults: false,
            ..node()
        };
        assert_eq!(pod_cgroups(&pod, &raw).unwrap().qos, QosClass::Burstable);
    }

    #[test]
    fn many_pods_keep_per_pod_errors() {
        let bad = PodSpec::new(
            "bad",
            vec![Container::new("a", &[("cpu", "2")], &[("cpu", "1")]).unwrap()],
        );
        let got = node_cgroups(&[web_pod(), bad], &node()).unwrap();
        assert!(got.pods[0].is_ok());
        assert_eq!(
            got.pods[1].as_ref().unwrap_err().code(),
            "E_REQUEST_EXCEEDS_LIMIT"
        );
        assert_eq!(got.burstable.config.cpu_shares, Some(614));
        assert_eq!(
            got.burstable.path,
            "/kubepods.slice/kubepods-burstable.slice"
        );
        assert_eq!(got.besteffort.files.cpu_weight, Some(1));
        assert_eq!(got.kubepods.path, "/kubepods.slice");
    }

    #[test]
    fn a_batch_one_pod_at_a_time_matches_node_cgroups() {
        let bad = PodSpec::new("bad", vec![]);
        let pods = [web_pod(), bad, web_pod()];
        let whole = node_cgroups(&pods, &node()).unwrap();
        let config = node();
        let mut batch = NodeBatch::new(&config).unwrap();
        let each: Vec<_> = pods.iter().map(|pod| batch.pod(pod)).collect();
        assert_eq!(each, whole.pods);
        let tiers = batch.tiers().unwrap();
        assert_eq!(tiers.burstable, whole.burstable);
        assert_eq!(
            tiers.burstable.config.cpu_shares,
            Some(1228),
            "two valid pods count"
        );
        assert_eq!(tiers.kubepods, whole.kubepods);
        assert_eq!(tiers.besteffort, whole.besteffort);
    }

    #[test]
    fn node_errors() {
        let pod = web_pod();
        let zero = NodeConfig::default();
        assert_eq!(
            pod_cgroups(&pod, &zero).unwrap_err().code(),
            "E_INVALID_CAPACITY"
        );
        let period = NodeConfig {
            cpu_cfs_quota_period_us: 0,
            ..node()
        };
        assert_eq!(
            node_cgroups(std::slice::from_ref(&pod), &period)
                .unwrap_err()
                .code(),
            "E_INVALID_PERIOD"
        );
        let page = NodeConfig {
            page_size: 3,
            ..node()
        };
        assert_eq!(
            pod_cgroups(&pod, &page).unwrap_err().code(),
            "E_INVALID_PAGE_SIZE"
        );
        let mut underscore = web_pod();
        underscore.uid = "a_b".into();
        assert_eq!(
            pod_cgroups(&underscore, &node()).unwrap_err().code(),
            "E_INVALID_CGROUP_NAME"
        );
    }

    #[test]
    fn kubernetes_1_37_default_memory_qos() {
        // MemoryQoS is beta and on in 1.37, with memoryReservationPolicy None and no factor.
        let config = NodeConfig {
            enforce_memory_qos: true,
            memory_qos_policy: MemoryQosPolicy::NoReservation,
            memory_throttling_factor: None,
            ..node()
        };
        let got = pod_cgroups(&web_pod(), &config).unwrap();
        let app = &got.containers[1];
        let keys: Vec<(&str, &str)> = app
            .resources
            .unified
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            keys,
            [
                ("memory.low", "0"),
                ("memory.min", "0"),
                ("memory.oom.group", "1")
            ]
        );
        assert!(got.config.unified.is_empty());
        // On cgroup v1 MemoryQoS does nothing.
        let v1 = NodeConfig {
            cgroup_v2: false,
            ..config
        };
        let got = pod_cgroups(&web_pod(), &v1).unwrap();
        assert!(got.containers[1].resources.unified.is_empty());
    }
}

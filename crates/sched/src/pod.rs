//! The pod as the binding hands it over: the parts of `v1.Pod` the scheduler reads.

use crate::error::SchedError;
use crate::node_selector::{NodeSelectorTerm, PreferredSchedulingTerm};
use crate::resource::Resource;
use crate::selector::LabelSelector;
use crate::taint::Toleration;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodSpec {
    pub namespace: String,
    pub name: String,
    pub labels: Vec<(String, String)>,
    /// `spec.priority` (resolved from the PriorityClass by admission).
    pub priority: i32,
    /// Queue timestamp for PrioritySort ties (any monotonic unit).
    pub timestamp: i64,
    /// `spec.nodeName`: for a bound pod, its node; for a pending pod, the NodeName filter.
    pub node_name: Option<String>,
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    /// `spec.overhead`.
    pub overhead: Option<Resource>,
    pub node_selector: Vec<(String, String)>,
    pub affinity: Affinity,
    pub tolerations: Vec<Toleration>,
    pub topology_spread_constraints: Vec<TopologySpreadConstraint>,
    /// Selector for the system default spread constraints: the caller derives it from the
    /// Services, ReplicationControllers, ReplicaSets and StatefulSets selecting this pod
    /// (`helper.DefaultSelector`); `None` when nothing selects the pod.
    pub default_spread_selector: Option<LabelSelector>,
    /// `metadata.deletionTimestamp` is set.
    pub terminating: bool,
    /// `spec.preemptionPolicy: Never`.
    pub preemption_never: bool,
}

impl PodSpec {
    /// The table key, `namespace/name`.
    pub fn key(&self) -> String {
        let mut key = String::with_capacity(self.namespace.len() + 1 + self.name.len());
        key.push_str(&self.namespace);
        key.push('/');
        key.push_str(&self.name);
        key
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Container {
    pub image: String,
    /// `resources.requests`; a missing cpu or memory request is distinguished from an explicit
    /// zero by the two flags below (scoring substitutes defaults only for missing ones).
    pub requests: Resource,
    pub has_cpu_request: bool,
    pub has_memory_request: bool,
    pub ports: Vec<ContainerPort>,
}

impl Container {
    /// A container requesting `milli_cpu` and `memory` bytes (both set).
    pub fn with_requests(milli_cpu: i64, memory: i64) -> Container {
        Container {
            requests: Resource {
                milli_cpu,
                memory,
                ..Resource::default()
            },
            has_cpu_request: true,
            has_memory_request: true,
            ..Container::default()
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Protocol {
    #[default]
    Tcp,
    Udp,
    Sctp,
}

impl Protocol {
    /// `""` means TCP, as in the API.
    pub fn parse(s: &str) -> Result<Self, SchedError> {
        Ok(match s {
            "" | "TCP" => Protocol::Tcp,
            "UDP" => Protocol::Udp,
            "SCTP" => Protocol::Sctp,
            other => {
                return Err(SchedError::InvalidField(format!(
                    "unknown protocol {other:?}"
                )))
            }
        })
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContainerPort {
    pub host_port: i32,
    pub protocol: Protocol,
    /// Empty means `0.0.0.0`.
    pub host_ip: String,
}

/// `v1.Affinity`, flattened.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Affinity {
    /// `nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    /// `None` when absent.
    pub node_required: Option<Vec<NodeSelectorTerm>>,
    pub node_preferred: Vec<PreferredSchedulingTerm>,
    pub pod_affinity_required: Vec<PodAffinityTerm>,
    pub pod_affinity_preferred: Vec<WeightedPodAffinityTerm>,
    pub pod_anti_affinity_required: Vec<PodAffinityTerm>,
    pub pod_anti_affinity_preferred: Vec<WeightedPodAffinityTerm>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodAffinityTerm {
    /// `None` selects no pods.
    pub label_selector: Option<LabelSelector>,
    pub namespaces: Vec<String>,
    pub namespace_selector: Option<LabelSelector>,
    pub topology_key: String,
    pub match_label_keys: Vec<String>,
    pub mismatch_label_keys: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WeightedPodAffinityTerm {
    pub weight: i32,
    pub term: PodAffinityTerm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WhenUnsatisfiable {
    #[default]
    DoNotSchedule,
    ScheduleAnyway,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeInclusionPolicy {
    Honor,
    Ignore,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopologySpreadConstraint {
    pub max_skew: i32,
    pub topology_key: String,
    pub when_unsatisfiable: WhenUnsatisfiable,
    /// `None` selects no pods.
    pub label_selector: Option<LabelSelector>,
    pub min_domains: Option<i32>,
    /// Default Honor.
    pub node_affinity_policy: Option<NodeInclusionPolicy>,
    /// Default Ignore.
    pub node_taints_policy: Option<NodeInclusionPolicy>,
    pub match_label_keys: Vec<String>,
}

//! The parts of Kubernetes API objects (v1 Pod, v1 Node, metav1 LabelSelector) the core crates
//! read, as serde mirrors of their JSON, and their conversion into the crates' own types.
//! Unknown fields are ignored: real objects carry many more.

use std::collections::BTreeMap;

use kubewasm_cgroup::Quantity;
use kubewasm_sched as sched;
use serde::Deserialize;

use crate::error::BindingError;

type Map = BTreeMap<String, String>;

/// A resource quantity as it appears in JSON: Kubernetes writes strings but also reads numbers
/// (`resource.Quantity.UnmarshalJSON`).
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum QuantityJson {
    Text(String),
    Number(serde_json::Number),
}

impl QuantityJson {
    fn text(&self) -> String {
        match self {
            QuantityJson::Text(s) => s.clone(),
            QuantityJson::Number(n) => n.to_string(),
        }
    }
}

pub(crate) type ResourceList = BTreeMap<String, QuantityJson>;

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct ObjectMeta {
    pub name: String,
    pub namespace: String,
    pub uid: String,
    pub labels: Map,
    pub annotations: Map,
    pub deletion_timestamp: Option<String>,
    pub creation_timestamp: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct LabelSelectorJson {
    pub match_labels: Map,
    pub match_expressions: Vec<RequirementJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RequirementJson {
    pub key: String,
    pub operator: String,
    pub values: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct ResourceRequirements {
    pub requests: ResourceList,
    pub limits: ResourceList,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct ContainerPortJson {
    pub host_port: i32,
    pub protocol: String,
    #[serde(rename = "hostIP")]
    pub host_ip: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct ContainerJson {
    pub name: String,
    pub image: String,
    pub resources: ResourceRequirements,
    pub ports: Vec<ContainerPortJson>,
    pub restart_policy: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct TolerationJson {
    pub key: String,
    pub operator: String,
    pub value: String,
    pub effect: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct NodeSelectorTermJson {
    pub match_expressions: Vec<RequirementJson>,
    pub match_fields: Vec<RequirementJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct NodeSelectorJson {
    pub node_selector_terms: Vec<NodeSelectorTermJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PreferredTermJson {
    pub weight: i32,
    pub preference: NodeSelectorTermJson,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct NodeAffinityJson {
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelectorJson>,
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredTermJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PodAffinityTermJson {
    pub label_selector: Option<LabelSelectorJson>,
    pub namespaces: Vec<String>,
    pub namespace_selector: Option<LabelSelectorJson>,
    pub topology_key: String,
    pub match_label_keys: Vec<String>,
    pub mismatch_label_keys: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct WeightedTermJson {
    pub weight: i32,
    pub pod_affinity_term: PodAffinityTermJson,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PodAffinityJson {
    pub required_during_scheduling_ignored_during_execution: Vec<PodAffinityTermJson>,
    pub preferred_during_scheduling_ignored_during_execution: Vec<WeightedTermJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct AffinityJson {
    pub node_affinity: Option<NodeAffinityJson>,
    pub pod_affinity: Option<PodAffinityJson>,
    pub pod_anti_affinity: Option<PodAffinityJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct SpreadConstraintJson {
    pub max_skew: i32,
    pub topology_key: String,
    pub when_unsatisfiable: String,
    pub label_selector: Option<LabelSelectorJson>,
    pub min_domains: Option<i32>,
    pub node_affinity_policy: Option<String>,
    pub node_taints_policy: Option<String>,
    pub match_label_keys: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct PodSpecJson {
    pub node_name: String,
    pub node_selector: Map,
    pub affinity: Option<AffinityJson>,
    pub tolerations: Vec<TolerationJson>,
    pub topology_spread_constraints: Vec<SpreadConstraintJson>,
    pub containers: Vec<ContainerJson>,
    pub init_containers: Vec<ContainerJson>,
    pub overhead: Option<ResourceList>,
    pub priority: Option<i32>,
    pub priority_class_name: String,
    pub preemption_policy: Option<String>,
    pub scheduler_name: String,
}

/// A v1 Pod.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Pod {
    pub metadata: ObjectMeta,
    pub spec: PodSpecJson,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct TaintJson {
    pub key: String,
    pub value: String,
    pub effect: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct NodeSpecJson {
    pub unschedulable: bool,
    pub taints: Vec<TaintJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct ImageJson {
    pub names: Vec<String>,
    pub size_bytes: i64,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct NodeStatusJson {
    pub allocatable: ResourceList,
    pub capacity: ResourceList,
    pub images: Vec<ImageJson>,
}

/// A v1 Node.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Node {
    pub metadata: ObjectMeta,
    pub spec: NodeSpecJson,
    pub status: NodeStatusJson,
}

fn invalid(message: String) -> BindingError {
    BindingError {
        code: "E_INVALID_FIELD",
        message,
    }
}

fn quantity(name: &str, text: &str) -> Result<i64, BindingError> {
    let parsed = Quantity::parse(text).map_err(|e| invalid(format!("{name}: {e}")))?;
    // The scheduler counts cpu in milli-units and everything else in whole units
    // (framework.Resource: MilliCPU, Memory, EphemeralStorage, ScalarResources).
    let value = if name == "cpu" {
        parsed.milli_value()
    } else {
        parsed.value()
    };
    value.map_err(|e| invalid(format!("{name}: {e}")))
}

/// A resource list (`{"cpu": "100m", "memory": "500Mi", …}`) as the scheduler's Resource; `pods`
/// is left out (it is a count of pods, not a request).
pub(crate) fn resource(list: &ResourceList) -> Result<sched::Resource, BindingError> {
    let mut r = sched::Resource::default();
    for (name, text) in list {
        let value = quantity(name, &text.text())?;
        match name.as_str() {
            "cpu" => r.milli_cpu = value,
            "memory" => r.memory = value,
            "ephemeral-storage" => r.ephemeral_storage = value,
            "pods" => {}
            _ => {
                r.scalar.insert(name.clone(), value);
            }
        }
    }
    Ok(r)
}

fn pairs(map: &Map) -> Vec<(String, String)> {
    map.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

pub(crate) fn label_selector(
    s: &LabelSelectorJson,
) -> Result<sched::LabelSelector, sched::SchedError> {
    Ok(sched::LabelSelector {
        match_labels: pairs(&s.match_labels),
        match_expressions: s
            .match_expressions
            .iter()
            .map(|r| {
                Ok(sched::LabelSelectorRequirement {
                    key: r.key.clone(),
                    operator: sched::SelectorOperator::parse(&r.operator)?,
                    values: r.values.clone(),
                })
            })
            .collect::<Result<_, sched::SchedError>>()?,
    })
}

fn node_requirements(
    reqs: &[RequirementJson],
) -> Result<Vec<sched::NodeSelectorRequirement>, sched::SchedError> {
    reqs.iter()
        .map(|r| {
            Ok(sched::NodeSelectorRequirement {
                key: r.key.clone(),
                operator: sched::NodeSelectorOperator::parse(&r.operator)?,
                values: r.values.clone(),
            })
        })
        .collect()
}

pub(crate) fn node_selector_term(
    t: &NodeSelectorTermJson,
) -> Result<sched::NodeSelectorTerm, sched::SchedError> {
    Ok(sched::NodeSelectorTerm {
        match_expressions: node_requirements(&t.match_expressions)?,
        match_fields: node_requirements(&t.match_fields)?,
    })
}

fn pod_affinity_term(t: &PodAffinityTermJson) -> Result<sched::PodAffinityTerm, sched::SchedError> {
    Ok(sched::PodAffinityTerm {
        label_selector: t.label_selector.as_ref().map(label_selector).transpose()?,
        namespaces: t.namespaces.clone(),
        namespace_selector: t
            .namespace_selector
            .as_ref()
            .map(label_selector)
            .transpose()?,
        topology_key: t.topology_key.clone(),
        match_label_keys: t.match_label_keys.clone(),
        mismatch_label_keys: t.mismatch_label_keys.clone(),
    })
}

fn weighted_terms(
    terms: &[WeightedTermJson],
) -> Result<Vec<sched::WeightedPodAffinityTerm>, sched::SchedError> {
    terms
        .iter()
        .map(|w| {
            Ok(sched::WeightedPodAffinityTerm {
                weight: w.weight,
                term: pod_affinity_term(&w.pod_affinity_term)?,
            })
        })
        .collect()
}

fn affinity(a: &AffinityJson) -> Result<sched::Affinity, sched::SchedError> {
    let mut out = sched::Affinity::default();
    if let Some(node) = &a.node_affinity {
        if let Some(required) = &node.required_during_scheduling_ignored_during_execution {
            out.node_required = Some(
                required
                    .node_selector_terms
                    .iter()
                    .map(node_selector_term)
                    .collect::<Result<_, _>>()?,
            );
        }
        out.node_preferred = node
            .preferred_during_scheduling_ignored_during_execution
            .iter()
            .map(|p| {
                Ok(sched::PreferredSchedulingTerm {
                    weight: p.weight,
                    preference: node_selector_term(&p.preference)?,
                })
            })
            .collect::<Result<_, sched::SchedError>>()?;
    }
    if let Some(pa) = &a.pod_affinity {
        out.pod_affinity_required = pa
            .required_during_scheduling_ignored_during_execution
            .iter()
            .map(pod_affinity_term)
            .collect::<Result<_, _>>()?;
        out.pod_affinity_preferred =
            weighted_terms(&pa.preferred_during_scheduling_ignored_during_execution)?;
    }
    if let Some(anti) = &a.pod_anti_affinity {
        out.pod_anti_affinity_required = anti
            .required_during_scheduling_ignored_during_execution
            .iter()
            .map(pod_affinity_term)
            .collect::<Result<_, _>>()?;
        out.pod_anti_affinity_preferred =
            weighted_terms(&anti.preferred_during_scheduling_ignored_during_execution)?;
    }
    Ok(out)
}

fn inclusion_policy(
    p: &Option<String>,
) -> Result<Option<sched::NodeInclusionPolicy>, sched::SchedError> {
    match p.as_deref() {
        None => Ok(None),
        Some("Honor") => Ok(Some(sched::NodeInclusionPolicy::Honor)),
        Some("Ignore") => Ok(Some(sched::NodeInclusionPolicy::Ignore)),
        Some(other) => Err(sched::SchedError::InvalidField(format!(
            "unknown node inclusion policy {other:?}"
        ))),
    }
}

pub(crate) fn spread_constraint(
    c: &SpreadConstraintJson,
) -> Result<sched::TopologySpreadConstraint, sched::SchedError> {
    Ok(sched::TopologySpreadConstraint {
        max_skew: c.max_skew,
        topology_key: c.topology_key.clone(),
        when_unsatisfiable: match c.when_unsatisfiable.as_str() {
            "" | "DoNotSchedule" => sched::WhenUnsatisfiable::DoNotSchedule,
            "ScheduleAnyway" => sched::WhenUnsatisfiable::ScheduleAnyway,
            other => {
                return Err(sched::SchedError::InvalidField(format!(
                    "unknown whenUnsatisfiable {other:?}"
                )))
            }
        },
        label_selector: c.label_selector.as_ref().map(label_selector).transpose()?,
        min_domains: c.min_domains,
        node_affinity_policy: inclusion_policy(&c.node_affinity_policy)?,
        node_taints_policy: inclusion_policy(&c.node_taints_policy)?,
        match_label_keys: c.match_label_keys.clone(),
    })
}

fn container(c: &ContainerJson) -> Result<sched::Container, BindingError> {
    let requests = &c.resources.requests;
    Ok(sched::Container {
        image: c.image.clone(),
        requests: resource(requests)?,
        has_cpu_request: requests.contains_key("cpu"),
        has_memory_request: requests.contains_key("memory"),
        ports: c
            .ports
            .iter()
            .filter(|p| p.host_port > 0)
            .map(|p| {
                Ok(sched::ContainerPort {
                    host_port: p.host_port,
                    protocol: sched::Protocol::parse(&p.protocol).map_err(BindingError::from)?,
                    host_ip: p.host_ip.clone(),
                })
            })
            .collect::<Result<_, BindingError>>()?,
    })
}

/// A Pod as the scheduler reads it. `timestamp` orders equal-priority pods in the queue;
/// `default_spread_selector` is what helper.DefaultSelector derives from the pod's owners.
pub(crate) fn sched_pod(
    pod: &Pod,
    timestamp: i64,
    default_spread_selector: Option<&LabelSelectorJson>,
) -> Result<sched::PodSpec, BindingError> {
    let spec = &pod.spec;
    let conv = || -> Result<sched::PodSpec, sched::SchedError> {
        Ok(sched::PodSpec {
            namespace: pod.metadata.namespace.clone(),
            name: pod.metadata.name.clone(),
            labels: pairs(&pod.metadata.labels),
            priority: spec.priority.unwrap_or(0),
            timestamp,
            node_name: (!spec.node_name.is_empty()).then(|| spec.node_name.clone()),
            containers: Vec::new(),
            init_containers: Vec::new(),
            overhead: None,
            node_selector: pairs(&spec.node_selector),
            affinity: spec
                .affinity
                .as_ref()
                .map(affinity)
                .transpose()?
                .unwrap_or_default(),
            tolerations: spec
                .tolerations
                .iter()
                .map(|t| {
                    Ok(sched::Toleration {
                        key: t.key.clone(),
                        operator: sched::TolerationOperator::parse(&t.operator)?,
                        value: t.value.clone(),
                        effect: if t.effect.is_empty() {
                            None
                        } else {
                            Some(sched::TaintEffect::parse(&t.effect)?)
                        },
                    })
                })
                .collect::<Result<_, sched::SchedError>>()?,
            topology_spread_constraints: spec
                .topology_spread_constraints
                .iter()
                .map(spread_constraint)
                .collect::<Result<_, _>>()?,
            default_spread_selector: default_spread_selector.map(label_selector).transpose()?,
            terminating: pod.metadata.deletion_timestamp.is_some(),
            preemption_never: spec.preemption_policy.as_deref() == Some("Never"),
        })
    };
    let mut out = conv().map_err(BindingError::from)?;
    out.containers = spec
        .containers
        .iter()
        .map(container)
        .collect::<Result<_, _>>()?;
    out.init_containers = spec
        .init_containers
        .iter()
        .map(container)
        .collect::<Result<_, _>>()?;
    out.overhead = spec.overhead.as_ref().map(resource).transpose()?;
    Ok(out)
}

/// A Node as the scheduler reads it.
pub(crate) fn sched_node(node: &Node) -> Result<sched::NodeSpec, BindingError> {
    let allocatable = &node.status.allocatable;
    let pods = match allocatable.get("pods") {
        Some(text) => quantity("pods", &text.text())?,
        None => 0,
    };
    Ok(sched::NodeSpec {
        name: node.metadata.name.clone(),
        labels: pairs(&node.metadata.labels),
        taints: node
            .spec
            .taints
            .iter()
            .map(|t| {
                Ok(sched::Taint {
                    key: t.key.clone(),
                    value: t.value.clone(),
                    effect: sched::TaintEffect::parse(&t.effect).map_err(BindingError::from)?,
                })
            })
            .collect::<Result<_, BindingError>>()?,
        unschedulable: node.spec.unschedulable,
        allocatable: resource(allocatable)?,
        allowed_pod_number: pods,
        images: node
            .status
            .images
            .iter()
            .map(|i| sched::ContainerImage {
                names: i.names.clone(),
                size_bytes: i.size_bytes,
            })
            .collect(),
    })
}

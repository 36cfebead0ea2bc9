//! v1 Pods, Nodes and label selectors (read through the shared mirror, `kubewasm_api::v1`) as
//! the engine's own types: quantities in the units the scheduler counts, operators and effects
//! checked as the API server would.

use kubewasm_api::{v1, CodedError, Quantity};

use crate::{
    Affinity, Container, ContainerImage, ContainerPort, LabelSelector, LabelSelectorRequirement,
    NodeInclusionPolicy, NodeSelectorOperator, NodeSelectorRequirement, NodeSelectorTerm, NodeSpec,
    PodAffinityTerm, PodSpec, PreferredSchedulingTerm, Protocol, Resource, SchedError,
    SelectorOperator, Taint, TaintEffect, Toleration, TolerationOperator, TopologySpreadConstraint,
    WeightedPodAffinityTerm, WhenUnsatisfiable,
};

type Labels<'a> = std::collections::BTreeMap<v1::Str<'a>, v1::Str<'a>>;

fn invalid(message: String) -> CodedError {
    CodedError::new("E_INVALID_FIELD", message)
}

/// One quantity in the scheduler's units: cpu in milli-units, everything else in whole units
/// (framework.Resource: MilliCPU, Memory, EphemeralStorage, ScalarResources).
fn amount(name: &str, quantity: &Quantity) -> Result<i64, CodedError> {
    let value = if name == "cpu" {
        quantity.milli_value()
    } else {
        quantity.value()
    };
    value.map_err(|e| invalid(format!("{name}: {e}")))
}

fn quantities(
    list: &v1::ResourceList,
) -> Result<&std::collections::BTreeMap<String, Quantity>, CodedError> {
    list.quantities()
        .map_err(|bad| invalid(format!("{}: {}", bad.name, bad.error)))
}

/// A resource list (`{"cpu": "100m", "memory": "500Mi", …}`) as the scheduler's Resource; `pods`
/// is left out (it is a count of pods, not a request).
pub(crate) fn resource(list: &v1::ResourceList) -> Result<Resource, CodedError> {
    let mut r = Resource::default();
    for (name, quantity) in quantities(list)? {
        let value = amount(name, quantity)?;
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

fn pairs(map: &Labels<'_>) -> Vec<(String, String)> {
    map.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn strings(list: &[v1::Str<'_>]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

pub(crate) fn label_selector(s: &v1::LabelSelector) -> Result<LabelSelector, SchedError> {
    Ok(LabelSelector {
        match_labels: pairs(&s.match_labels),
        match_expressions: s
            .match_expressions
            .iter()
            .map(|r| {
                Ok(LabelSelectorRequirement {
                    key: r.key.to_string(),
                    operator: SelectorOperator::parse(&r.operator)?,
                    values: strings(&r.values),
                })
            })
            .collect::<Result<_, SchedError>>()?,
    })
}

fn node_requirements(
    reqs: &[v1::NodeSelectorRequirement],
) -> Result<Vec<NodeSelectorRequirement>, SchedError> {
    reqs.iter()
        .map(|r| {
            Ok(NodeSelectorRequirement {
                key: r.key.to_string(),
                operator: NodeSelectorOperator::parse(&r.operator)?,
                values: strings(&r.values),
            })
        })
        .collect()
}

pub(crate) fn node_selector_term(t: &v1::NodeSelectorTerm) -> Result<NodeSelectorTerm, SchedError> {
    Ok(NodeSelectorTerm {
        match_expressions: node_requirements(&t.match_expressions)?,
        match_fields: node_requirements(&t.match_fields)?,
    })
}

pub(crate) fn preferred_term(
    p: &v1::PreferredSchedulingTerm,
) -> Result<PreferredSchedulingTerm, SchedError> {
    Ok(PreferredSchedulingTerm {
        weight: p.weight,
        preference: node_selector_term(&p.preference)?,
    })
}

fn pod_affinity_term(t: &v1::PodAffinityTerm) -> Result<PodAffinityTerm, SchedError> {
    Ok(PodAffinityTerm {
        label_selector: t.label_selector.as_ref().map(label_selector).transpose()?,
        namespaces: strings(&t.namespaces),
        namespace_selector: t
            .namespace_selector
            .as_ref()
            .map(label_selector)
            .transpose()?,
        topology_key: t.topology_key.to_string(),
        match_label_keys: strings(&t.match_label_keys),
        mismatch_label_keys: strings(&t.mismatch_label_keys),
    })
}

fn weighted_terms(
    terms: &[v1::WeightedPodAffinityTerm],
) -> Result<Vec<WeightedPodAffinityTerm>, SchedError> {
    terms
        .iter()
        .map(|w| {
            Ok(WeightedPodAffinityTerm {
                weight: w.weight,
                term: pod_affinity_term(&w.pod_affinity_term)?,
            })
        })
        .collect()
}

fn affinity(a: &v1::Affinity) -> Result<Affinity, SchedError> {
    let mut out = Affinity::default();
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
            .map(preferred_term)
            .collect::<Result<_, _>>()?;
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

fn inclusion_policy(p: &Option<v1::Str<'_>>) -> Result<Option<NodeInclusionPolicy>, SchedError> {
    match p.as_deref() {
        None => Ok(None),
        Some("Honor") => Ok(Some(NodeInclusionPolicy::Honor)),
        Some("Ignore") => Ok(Some(NodeInclusionPolicy::Ignore)),
        Some(other) => Err(SchedError::InvalidField(format!(
            "unknown node inclusion policy {other:?}"
        ))),
    }
}

pub(crate) fn spread_constraint(
    c: &v1::TopologySpreadConstraint,
) -> Result<TopologySpreadConstraint, SchedError> {
    Ok(TopologySpreadConstraint {
        max_skew: c.max_skew,
        topology_key: c.topology_key.to_string(),
        when_unsatisfiable: match c.when_unsatisfiable.as_str() {
            "" | "DoNotSchedule" => WhenUnsatisfiable::DoNotSchedule,
            "ScheduleAnyway" => WhenUnsatisfiable::ScheduleAnyway,
            other => {
                return Err(SchedError::InvalidField(format!(
                    "unknown whenUnsatisfiable {other:?}"
                )))
            }
        },
        label_selector: c.label_selector.as_ref().map(label_selector).transpose()?,
        min_domains: c.min_domains,
        node_affinity_policy: inclusion_policy(&c.node_affinity_policy)?,
        node_taints_policy: inclusion_policy(&c.node_taints_policy)?,
        match_label_keys: strings(&c.match_label_keys),
    })
}

fn container(c: &v1::Container) -> Result<Container, CodedError> {
    let requests = &c.resources.requests;
    let requested = resource(requests)?;
    let names = quantities(requests)?;
    let image = c.image.get().map_err(CodedError::bad_json)?;
    let ports = c.ports.get().map_err(CodedError::bad_json)?;
    Ok(Container {
        image: image.into_owned(),
        requests: requested,
        has_cpu_request: names.contains_key("cpu"),
        has_memory_request: names.contains_key("memory"),
        ports: ports
            .iter()
            .filter(|p| p.host_port > 0)
            .map(|p| {
                Ok(ContainerPort {
                    host_port: p.host_port,
                    protocol: Protocol::parse(&p.protocol)?,
                    host_ip: p.host_ip.to_string(),
                })
            })
            .collect::<Result<_, SchedError>>()?,
    })
}

/// A Pod as the scheduler reads it. `timestamp` orders equal-priority pods in the queue;
/// `default_spread_selector` is what helper.DefaultSelector derives from the pod's owners.
pub(crate) fn pod_spec(
    pod: &v1::Pod,
    timestamp: i64,
    default_spread_selector: Option<&v1::LabelSelector>,
) -> Result<PodSpec, CodedError> {
    let spec = &pod.spec;
    // The fields only the scheduler reads, kept as JSON text by the mirror.
    let bad = CodedError::bad_json;
    let labels = pod.metadata.labels.get().map_err(bad)?;
    let node_selector = spec.node_selector.get().map_err(bad)?;
    let affinity_json = spec.affinity.get().map_err(bad)?;
    let tolerations = spec.tolerations.get().map_err(bad)?;
    let spread = spec.topology_spread_constraints.get().map_err(bad)?;
    let conv = || -> Result<PodSpec, SchedError> {
        Ok(PodSpec {
            namespace: pod.metadata.namespace.to_string(),
            name: pod.metadata.name.to_string(),
            labels: pairs(&labels),
            priority: spec.priority.unwrap_or(0),
            timestamp,
            node_name: (!spec.node_name.is_empty()).then(|| spec.node_name.to_string()),
            containers: Vec::new(),
            init_containers: Vec::new(),
            overhead: None,
            node_selector: pairs(&node_selector),
            affinity: affinity_json
                .as_ref()
                .map(affinity)
                .transpose()?
                .unwrap_or_default(),
            tolerations: tolerations
                .iter()
                .map(|t| {
                    Ok(Toleration {
                        key: t.key.to_string(),
                        operator: TolerationOperator::parse(&t.operator)?,
                        value: t.value.to_string(),
                        effect: if t.effect.is_empty() {
                            None
                        } else {
                            Some(TaintEffect::parse(&t.effect)?)
                        },
                    })
                })
                .collect::<Result<_, SchedError>>()?,
            topology_spread_constraints: spread
                .iter()
                .map(spread_constraint)
                .collect::<Result<_, _>>()?,
            default_spread_selector: default_spread_selector.map(label_selector).transpose()?,
            terminating: pod.metadata.deletion_timestamp.is_some(),
            preemption_never: spec.preemption_policy.as_deref() == Some("Never"),
        })
    };
    let mut out = conv()?;
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
pub(crate) fn node_spec(node: &v1::Node) -> Result<NodeSpec, CodedError> {
    let allocatable = &node.status.allocatable;
    let pods = match quantities(allocatable)?.get("pods") {
        Some(quantity) => amount("pods", quantity)?,
        None => 0,
    };
    let labels = node.metadata.labels.get().map_err(CodedError::bad_json)?;
    Ok(NodeSpec {
        name: node.metadata.name.to_string(),
        labels: pairs(&labels),
        taints: node
            .spec
            .taints
            .iter()
            .map(|t| {
                Ok(Taint {
                    key: t.key.to_string(),
                    value: t.value.to_string(),
                    effect: TaintEffect::parse(&t.effect)?,
                })
            })
            .collect::<Result<_, SchedError>>()?,
        unschedulable: node.spec.unschedulable,
        allocatable: resource(allocatable)?,
        allowed_pod_number: pods,
        images: node
            .status
            .images
            .iter()
            .map(|i| ContainerImage {
                names: strings(&i.names),
                size_bytes: i.size_bytes,
            })
            .collect(),
    })
}

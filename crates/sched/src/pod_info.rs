//! A pod compiled once for scheduling (`framework.PodInfo`): interned labels, effective requests,
//! parsed selectors, affinity terms and spread constraints.

use crate::affinity_term::AffinityTerm;
use crate::error::SchedError;
use crate::intern::{Interner, Sym};
use crate::labels::Labels;
use crate::node_selector::{CompiledTerm, RequiredNodeAffinity};
use crate::pod::{
    Container, NodeInclusionPolicy, PodSpec, Protocol, TopologySpreadConstraint, WhenUnsatisfiable,
};
use crate::resource::Resource;
use crate::selector::{Requirement, Selector};
use crate::taint::TolerationId;

/// `schedutil.DefaultMilliCPURequest` (pkg/scheduler/util/pod_resources.go): the CPU a container
/// without a cpu request is assumed to use when scoring.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `schedutil.DefaultMemoryRequest` (pkg/scheduler/util/pod_resources.go): 200 MB.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// A host port a pod wants, sanitized as `HostPortInfo` does (empty IP → 0.0.0.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HostPort {
    pub ip: Sym,
    pub protocol: Protocol,
    pub port: i32,
}

/// A spread constraint as `topologySpreadConstraint` in podtopologyspread/common.go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpreadConstraint {
    pub max_skew: i32,
    pub topology_key: Sym,
    /// `None` selects no pod.
    pub selector: Option<Selector>,
    pub min_domains: i32,
    pub node_affinity_honor: bool,
    pub node_taints_honor: bool,
}

#[derive(Debug, Clone)]
pub struct PodInfo {
    pub key: String,
    pub namespace: Sym,
    pub labels: Labels,
    pub priority: i32,
    pub timestamp: i64,
    pub node_name: Option<Sym>,
    /// Effective requests (`computePodResourceRequest`).
    pub requests: Resource,
    /// `requests.scalar` with interned names, in name order.
    pub scalar: Vec<(Sym, i64)>,
    /// Requests with the non-zero defaults substituted for missing cpu/memory (scoring).
    pub non_zero_cpu: i64,
    pub non_zero_memory: i64,
    pub host_ports: Vec<HostPort>,
    /// Normalized image names of init and regular containers.
    pub images: Vec<Sym>,
    pub num_containers: usize,
    pub tolerations: Vec<TolerationId>,
    pub required_node_affinity: RequiredNodeAffinity,
    /// `(weight, term)` of preferred node affinity, weight-0 terms dropped.
    pub preferred_node_affinity: Vec<(i64, CompiledTerm)>,
    pub required_affinity: Vec<AffinityTerm>,
    pub required_anti_affinity: Vec<AffinityTerm>,
    pub preferred_affinity: Vec<(i64, AffinityTerm)>,
    pub preferred_anti_affinity: Vec<(i64, AffinityTerm)>,
    pub hard_spread: Vec<SpreadConstraint>,
    pub soft_spread: Vec<SpreadConstraint>,
    pub has_spread_constraints: bool,
    pub default_spread_selector: Option<Selector>,
    pub terminating: bool,
    pub preemption_never: bool,
}

impl PodInfo {
    pub fn compile(spec: &PodSpec, interner: &mut Interner) -> Result<PodInfo, SchedError> {
        let namespace = interner.intern(&spec.namespace);
        let labels = Labels::from_pairs(&spec.labels, interner);
        let (requests, non_zero_cpu, non_zero_memory) = pod_requests(spec);
        let scalar = requests
            .scalar
            .iter()
            .map(|(k, v)| (interner.intern(k), *v))
            .collect();
        let mut host_ports = Vec::new();
        for c in &spec.containers {
            for p in &c.ports {
                if p.host_port <= 0 {
                    continue;
                }
                let ip = if p.host_ip.is_empty() {
                    "0.0.0.0"
                } else {
                    p.host_ip.as_str()
                };
                host_ports.push(HostPort {
                    ip: interner.intern(ip),
                    protocol: p.protocol,
                    port: p.host_port,
                });
            }
        }
        let images = spec
            .init_containers
            .iter()
            .chain(&spec.containers)
            .map(|c| interner.intern(&normalized_image_name(&c.image)))
            .collect();
        let tolerations = spec
            .tolerations
            .iter()
            .map(|t| TolerationId::new(t, interner))
            .collect();
        let a = &spec.affinity;
        let required_node_affinity = RequiredNodeAffinity::compile(
            &spec.node_selector,
            a.node_required.as_deref(),
            interner,
        )?;
        let mut preferred_node_affinity = Vec::new();
        for t in &a.node_preferred {
            check_weight(t.weight, "preferred node affinity")?;
            if t.weight == 0 {
                continue;
            }
            preferred_node_affinity.push((
                i64::from(t.weight),
                CompiledTerm::compile(&t.preference, interner)?,
            ));
        }
        let compile_terms = |terms: &[crate::pod::PodAffinityTerm], interner: &mut Interner| {
            terms
                .iter()
                .map(|t| AffinityTerm::compile(t, namespace, &labels, interner))
                .collect::<Result<Vec<_>, _>>()
        };
        let compile_weighted = |terms: &[crate::pod::WeightedPodAffinityTerm],
                                interner: &mut Interner| {
            let mut out = Vec::with_capacity(terms.len());
            for t in terms {
                check_weight(t.weight, "preferred pod affinity")?;
                out.push((
                    i64::from(t.weight),
                    AffinityTerm::compile(&t.term, namespace, &labels, interner)?,
                ));
            }
            Ok::<_, SchedError>(out)
        };
        let required_affinity = compile_terms(&a.pod_affinity_required, interner)?;
        let required_anti_affinity = compile_terms(&a.pod_anti_affinity_required, interner)?;
        let preferred_affinity = compile_weighted(&a.pod_affinity_preferred, interner)?;
        let preferred_anti_affinity = compile_weighted(&a.pod_anti_affinity_preferred, interner)?;
        let mut hard_spread = Vec::new();
        let mut soft_spread = Vec::new();
        for c in &spec.topology_spread_constraints {
            let compiled = compile_spread(c, &labels, interner)?;
            match c.when_unsatisfiable {
                WhenUnsatisfiable::DoNotSchedule => hard_spread.push(compiled),
                WhenUnsatisfiable::ScheduleAnyway => soft_spread.push(compiled),
            }
        }
        let default_spread_selector =
            Selector::compile_opt(spec.default_spread_selector.as_ref(), interner)?;
        Ok(PodInfo {
            key: spec.key(),
            namespace,
            labels,
            priority: spec.priority,
            timestamp: spec.timestamp,
            node_name: spec.node_name.as_deref().map(|n| interner.intern(n)),
            requests,
            scalar,
            non_zero_cpu,
            non_zero_memory,
            host_ports,
            images,
            num_containers: spec.init_containers.len() + spec.containers.len(),
            tolerations,
            required_node_affinity,
            preferred_node_affinity,
            required_affinity,
            required_anti_affinity,
            preferred_affinity,
            preferred_anti_affinity,
            hard_spread,
            soft_spread,
            has_spread_constraints: !spec.topology_spread_constraints.is_empty(),
            default_spread_selector,
            terminating: spec.terminating,
            preemption_never: spec.preemption_never,
        })
    }

    /// True when the pod has any pod affinity or anti-affinity term (`PodsWithAffinity`).
    pub fn has_affinity_terms(&self) -> bool {
        !self.required_affinity.is_empty()
            || !self.required_anti_affinity.is_empty()
            || !self.preferred_affinity.is_empty()
            || !self.preferred_anti_affinity.is_empty()
    }
}

/// Weights of preferred terms are 1..=100 (API validation); 0 is tolerated and ignored.
fn check_weight(weight: i32, what: &str) -> Result<(), SchedError> {
    if (0..=100).contains(&weight) {
        Ok(())
    } else {
        Err(SchedError::InvalidField(format!(
            "{what} weight {weight} must be in the range 1-100"
        )))
    }
}

fn compile_spread(
    c: &TopologySpreadConstraint,
    pod_labels: &Labels,
    interner: &mut Interner,
) -> Result<SpreadConstraint, SchedError> {
    if c.max_skew <= 0 {
        return Err(SchedError::InvalidField(format!(
            "maxSkew {} must be greater than zero",
            c.max_skew
        )));
    }
    if c.topology_key.is_empty() {
        return Err(SchedError::InvalidField(
            "topologyKey must not be empty".into(),
        ));
    }
    let mut selector = Selector::compile_opt(c.label_selector.as_ref(), interner)?;
    // filterTopologySpreadConstraints: matchLabelKeys values present on the pod merge into the
    // selector (a nil selector stays nil's Nothing: mergeLabelSetWithSelector over Nothing
    // yields the label set alone, so treat nil as empty there, as Kubernetes does).
    let mut merged = Vec::new();
    for key in &c.match_label_keys {
        let k = interner.intern(key);
        if let Some(v) = pod_labels.get(k) {
            merged.push(Requirement::In(k, vec![v]));
        }
    }
    if !merged.is_empty() {
        let mut sel = selector.unwrap_or_default();
        for r in merged {
            sel = sel.with_requirement(r);
        }
        selector = Some(sel);
    }
    Ok(SpreadConstraint {
        max_skew: c.max_skew,
        topology_key: interner.intern(&c.topology_key),
        selector,
        min_domains: c.min_domains.unwrap_or(1),
        node_affinity_honor: c.node_affinity_policy.unwrap_or(NodeInclusionPolicy::Honor)
            == NodeInclusionPolicy::Honor,
        node_taints_honor: c.node_taints_policy.unwrap_or(NodeInclusionPolicy::Ignore)
            == NodeInclusionPolicy::Honor,
    })
}

/// `resourcehelper.PodRequests`: sum of containers, raised to any larger init container, plus
/// overhead; with and without the non-zero cpu/memory defaults for missing requests.
fn pod_requests(spec: &PodSpec) -> (Resource, i64, i64) {
    let mut req = Resource::default();
    let (mut nz_cpu, mut nz_mem) = (0i64, 0i64);
    for c in &spec.containers {
        req.add(&c.requests);
        let (cpu, mem) = non_zero(c);
        nz_cpu += cpu;
        nz_mem += mem;
    }
    for c in &spec.init_containers {
        req.max_with(&c.requests);
        let (cpu, mem) = non_zero(c);
        nz_cpu = nz_cpu.max(cpu);
        nz_mem = nz_mem.max(mem);
    }
    if let Some(o) = &spec.overhead {
        req.add(o);
        nz_cpu += o.milli_cpu;
        nz_mem += o.memory;
    }
    (req, nz_cpu, nz_mem)
}

fn non_zero(c: &Container) -> (i64, i64) {
    let cpu = if c.has_cpu_request {
        c.requests.milli_cpu
    } else {
        DEFAULT_MILLI_CPU_REQUEST
    };
    let mem = if c.has_memory_request {
        c.requests.memory
    } else {
        DEFAULT_MEMORY_REQUEST
    };
    (cpu, mem)
}

/// `normalizedImageName` (imagelocality/image_locality.go): add `:latest` when no tag is given.
pub fn normalized_image_name(name: &str) -> String {
    let index = |c: char| name.rfind(c).map_or(-1, |i| i as isize);
    if index(':') <= index('/') {
        let mut s = String::with_capacity(name.len() + ":latest".len());
        s.push_str(name);
        s.push_str(":latest");
        s
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_names_get_latest_when_untagged() {
        assert_eq!(normalized_image_name("nginx"), "nginx:latest");
        assert_eq!(normalized_image_name("nginx:1.2"), "nginx:1.2");
        assert_eq!(
            normalized_image_name("reg:5000/nginx"),
            "reg:5000/nginx:latest"
        );
        assert_eq!(
            normalized_image_name("reg:5000/nginx:v1"),
            "reg:5000/nginx:v1"
        );
    }

    #[test]
    fn requests_take_init_max_and_overhead_and_non_zero_defaults() {
        let spec = PodSpec {
            containers: vec![Container::with_requests(100, 1000), Container::default()],
            init_containers: vec![Container::with_requests(500, 10)],
            overhead: Some(Resource {
                milli_cpu: 10,
                memory: 5,
                ..Resource::default()
            }),
            ..PodSpec::default()
        };
        let (r, cpu, mem) = pod_requests(&spec);
        assert_eq!((r.milli_cpu, r.memory), (510, 1005));
        assert_eq!(cpu, 500 + 10); // max(100 + 100 default, 500) + 10
        assert_eq!(mem, 1000 + DEFAULT_MEMORY_REQUEST + 5);
        let none = pod_requests(&PodSpec::default());
        assert_eq!((none.1, none.2), (0, 0));
    }
}

//! The NodeResourcesFit filter: does the node have room for the pod's requests?
//! `pkg/scheduler/framework/plugins/noderesources/fit.go` `fitsRequest`.

use std::collections::BTreeSet;

use crate::cluster::{NodeEntry, WellKnown};
use crate::error::SchedError;
use crate::events::action_type::{DELETE, UPDATE_NODE_ALLOCATABLE, UPDATE_POD_SCALE_DOWN};
use crate::events::{
    on, ClusterEvent,
    EventResource::{Node, Pod},
    NODE_ADD,
};
use crate::intern::{Interner, Sym};
use crate::plugins::{PluginId, MAX_NODE_SCORE};
use crate::pod_info::PodInfo;
use crate::status::{Code, Failure, Reason};
use crate::{is_extended_resource_name, NodeResources, Resource};

/// Plugin name, as in the scheduler configuration.
pub const NAME: &str = "NodeResourcesFit";

/// `EventsToRegister` (noderesources/fit.go): an assigned pod deleted or scaled down
/// (UpdatePodScaleDown: with InPlacePodVerticalScaling, on by default) frees resources; a new node
/// or more allocatable adds them.
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[
    on(Pod, DELETE | UPDATE_POD_SCALE_DOWN),
    on(Node, NODE_ADD | UPDATE_NODE_ALLOCATABLE),
];

/// One resource the node is short of, as fit.go's `InsufficientResource`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsufficientResource {
    pub resource_name: String,
    /// Kubernetes' reason string, e.g. `"Insufficient cpu"`, `"Too many pods"`.
    pub reason: String,
    pub requested: i64,
    pub used: i64,
    pub capacity: i64,
}

/// `NodeResourcesFitArgs`: ignored resources for the filter, scoring strategy for the score.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FitArgs {
    pub ignored_resources: BTreeSet<String>,
    pub ignored_resource_groups: BTreeSet<String>,
    pub scoring_strategy: ScoringStrategy,
}

/// `config.ScoringStrategyType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoringStrategyType {
    #[default]
    LeastAllocated,
    MostAllocated,
    RequestedToCapacityRatio,
}

/// `config.ResourceSpec`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceSpec {
    pub name: String,
    pub weight: i64,
}

/// `config.UtilizationShapePoint` (utilization 0..=100, score 0..=10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtilizationShapePoint {
    pub utilization: i64,
    pub score: i64,
}

/// `config.ScoringStrategy`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoringStrategy {
    pub kind: ScoringStrategyType,
    pub resources: Vec<ResourceSpec>,
    /// RequestedToCapacityRatio's shape.
    pub shape: Vec<UtilizationShapePoint>,
}

/// `defaultResourceSpec` (pkg/scheduler/apis/config/v1/defaults.go): cpu and memory, weight 1.
pub fn default_resources() -> Vec<ResourceSpec> {
    vec![
        ResourceSpec {
            name: "cpu".into(),
            weight: 1,
        },
        ResourceSpec {
            name: "memory".into(),
            weight: 1,
        },
    ]
}

impl Default for ScoringStrategy {
    fn default() -> Self {
        ScoringStrategy {
            kind: ScoringStrategyType::LeastAllocated,
            resources: default_resources(),
            shape: default_shape(),
        }
    }
}

/// v1 defaults for RequestedToCapacityRatio without a shape: {0, 10}, {100, 0}.
pub fn default_shape() -> Vec<UtilizationShapePoint> {
    vec![
        UtilizationShapePoint {
            utilization: 0,
            score: 10,
        },
        UtilizationShapePoint {
            utilization: 100,
            score: 0,
        },
    ]
}

/// `config.MaxCustomPriorityScore` (pkg/scheduler/apis/config/types_pluginargs.go).
pub const MAX_CUSTOM_PRIORITY_SCORE: i64 = 10;
/// `maxUtilization` (noderesources/requested_to_capacity_ratio.go).
const MAX_UTILIZATION: i64 = 100;
/// Most resources a scoring strategy may name here (scores use fixed-size stack arrays).
pub const MAX_SCORED_RESOURCES: usize = 16;
/// `config.MaxWeight` for resource weights (validation_pluginargs.go).
const MAX_RESOURCE_WEIGHT: i64 = 100;

/// A scorer ready for the hot loop: resources interned, shape scaled.
#[derive(Debug, Clone)]
pub struct CompiledScorer {
    pub kind: ScoringStrategyType,
    /// `(resource, weight)`.
    pub resources: Vec<(Sym, i64)>,
    /// `(utilization, score scaled to MaxNodeScore)`.
    pub shape: Vec<(i64, i64)>,
}

impl CompiledScorer {
    /// Validates and interns a strategy (`ValidateNodeResourcesFitArgs`).
    pub fn compile(
        strategy: &ScoringStrategy,
        interner: &mut Interner,
    ) -> Result<Self, SchedError> {
        let resources = compile_resources(&strategy.resources, interner)?;
        let mut shape = Vec::new();
        if strategy.kind == ScoringStrategyType::RequestedToCapacityRatio {
            if strategy.shape.is_empty() {
                return Err(SchedError::InvalidConfig(
                    "shape: at least one point must be specified".into(),
                ));
            }
            let mut prev: Option<i64> = None;
            for p in &strategy.shape {
                if !(0..=MAX_UTILIZATION).contains(&p.utilization)
                    || !(0..=MAX_CUSTOM_PRIORITY_SCORE).contains(&p.score)
                    || prev.is_some_and(|u| p.utilization <= u)
                {
                    return Err(SchedError::InvalidConfig(format!(
                        "shape point {p:?}: utilization must be increasing in 0..=100 and score in 0..=10"
                    )));
                }
                prev = Some(p.utilization);
                shape.push((
                    p.utilization,
                    p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE),
                ));
            }
        }
        Ok(CompiledScorer {
            kind: strategy.kind,
            resources,
            shape,
        })
    }
}

/// Validates resource weights (1..=100) and interns the names.
pub fn compile_resources(
    specs: &[ResourceSpec],
    interner: &mut Interner,
) -> Result<Vec<(Sym, i64)>, SchedError> {
    if specs.len() > MAX_SCORED_RESOURCES {
        return Err(SchedError::InvalidConfig(format!(
            "at most {MAX_SCORED_RESOURCES} scored resources are supported"
        )));
    }
    specs
        .iter()
        .map(|r| {
            if r.weight <= 0 || r.weight > MAX_RESOURCE_WEIGHT {
                Err(SchedError::InvalidConfig(format!(
                    "resource {:?} weight {} must be in the range 1-100",
                    r.name, r.weight
                )))
            } else {
                Ok((interner.intern(&r.name), r.weight))
            }
        })
        .collect()
}

/// Every resource the node is short of for a pod requesting `pod`; empty when the pod fits.
pub fn fits_request(
    pod: &Resource,
    node: &NodeResources,
    args: &FitArgs,
) -> Vec<InsufficientResource> {
    let mut short = Vec::new();
    if node.pod_count + 1 > node.allowed_pod_number {
        short.push(InsufficientResource {
            resource_name: "pods".into(),
            reason: "Too many pods".into(),
            requested: 1,
            used: node.pod_count,
            capacity: node.allowed_pod_number,
        });
    }
    if pod.is_zero() {
        return short;
    }
    let (alloc, used) = (&node.allocatable, &node.requested);
    for (name, requested, used, capacity) in [
        ("cpu", pod.milli_cpu, used.milli_cpu, alloc.milli_cpu),
        ("memory", pod.memory, used.memory, alloc.memory),
        (
            "ephemeral-storage",
            pod.ephemeral_storage,
            used.ephemeral_storage,
            alloc.ephemeral_storage,
        ),
    ] {
        if requested > 0 && requested > capacity - used {
            short.push(insufficient(name, requested, used, capacity));
        }
    }
    for (name, &requested) in &pod.scalar {
        if requested == 0 || is_ignored(name, args) {
            continue;
        }
        let capacity = alloc.scalar.get(name).copied().unwrap_or(0);
        let used = used.scalar.get(name).copied().unwrap_or(0);
        if requested > capacity - used {
            short.push(insufficient(name, requested, used, capacity));
        }
    }
    short
}

fn insufficient(name: &str, requested: i64, used: i64, capacity: i64) -> InsufficientResource {
    InsufficientResource {
        resource_name: name.into(),
        reason: format!("Insufficient {name}"),
        requested,
        used,
        capacity,
    }
}

/// The Filter hot path: the same checks as [`fits_request`], reasons as interned ids.
#[inline]
pub fn filter(
    pod: &PodInfo,
    node: &NodeEntry,
    args: &FitArgs,
    wk: &WellKnown,
    interner: &Interner,
) -> Option<Failure> {
    let mut failure: Option<Failure> = None;
    let mut push = |r: Reason| match &mut failure {
        Some(f) => f.push(r),
        None => {
            failure = Some(Failure::new(
                Code::Unschedulable,
                PluginId::NodeResourcesFit,
                r,
            ))
        }
    };
    let n = &node.res;
    if n.pod_count + 1 > n.allowed_pod_number {
        push(Reason::TooManyPods);
    }
    let r = &pod.requests;
    if r.milli_cpu == 0 && r.memory == 0 && r.ephemeral_storage == 0 && pod.scalar.is_empty() {
        return failure;
    }
    let (alloc, used) = (&n.allocatable, &n.requested);
    if r.milli_cpu > 0 && r.milli_cpu > alloc.milli_cpu - used.milli_cpu {
        push(Reason::Insufficient(wk.cpu));
    }
    if r.memory > 0 && r.memory > alloc.memory - used.memory {
        push(Reason::Insufficient(wk.memory));
    }
    if r.ephemeral_storage > 0
        && r.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage
    {
        push(Reason::Insufficient(wk.ephemeral_storage));
    }
    for &(sym, quantity) in &pod.scalar {
        if quantity == 0 {
            continue;
        }
        let name = interner.resolve(sym);
        if is_ignored(name, args) {
            continue;
        }
        let capacity = alloc.scalar.get(name).copied().unwrap_or(0);
        let in_use = used.scalar.get(name).copied().unwrap_or(0);
        if quantity > capacity - in_use {
            push(Reason::Insufficient(sym));
        }
    }
    failure
}

/// True for resources other than cpu, memory and ephemeral-storage (`IsScalarResourceName`).
#[inline]
fn is_scalar(res: Sym, wk: &WellKnown) -> bool {
    res != wk.cpu && res != wk.memory && res != wk.ephemeral_storage
}

/// The pod's request for one scored resource (`calculatePodResourceRequest`): with the
/// non-zero defaults unless `use_requested`.
#[inline]
pub fn pod_request(pod: &PodInfo, res: Sym, use_requested: bool, wk: &WellKnown) -> i64 {
    if res == wk.cpu {
        if use_requested {
            pod.requests.milli_cpu
        } else {
            pod.non_zero_cpu
        }
    } else if res == wk.memory {
        if use_requested {
            pod.requests.memory
        } else {
            pod.non_zero_memory
        }
    } else if res == wk.ephemeral_storage {
        pod.requests.ephemeral_storage
    } else {
        pod.scalar
            .iter()
            .find(|(s, _)| *s == res)
            .map_or(0, |(_, q)| *q)
    }
}

/// `calculateResourceAllocatableRequest`: `(allocatable, requested incl. the pod)`, or
/// `(0, 0)` to leave the resource out.
#[inline]
pub fn allocatable_request(
    node: &NodeEntry,
    res: Sym,
    pod_request: i64,
    use_requested: bool,
    wk: &WellKnown,
    interner: &Interner,
) -> (i64, i64) {
    if pod_request == 0 && is_scalar(res, wk) {
        return (0, 0);
    }
    let n = &node.res;
    if res == wk.cpu {
        let used = if use_requested {
            n.requested.milli_cpu
        } else {
            node.non_zero_cpu
        };
        (n.allocatable.milli_cpu, used + pod_request)
    } else if res == wk.memory {
        let used = if use_requested {
            n.requested.memory
        } else {
            node.non_zero_memory
        };
        (n.allocatable.memory, used + pod_request)
    } else if res == wk.ephemeral_storage {
        (
            n.allocatable.ephemeral_storage,
            n.requested.ephemeral_storage + pod_request,
        )
    } else {
        let name = interner.resolve(res);
        match n.allocatable.scalar.get(name) {
            Some(&alloc) => (
                alloc,
                n.requested.scalar.get(name).copied().unwrap_or(0) + pod_request,
            ),
            None => (0, 0),
        }
    }
}

/// The Score of NodeResourcesFit for one node with the pod's per-resource requests.
#[inline]
pub fn score(
    scorer: &CompiledScorer,
    pod_requests: &[i64],
    node: &NodeEntry,
    wk: &WellKnown,
    interner: &Interner,
) -> i64 {
    let mut requested = [0i64; MAX_SCORED_RESOURCES];
    let mut allocatable = [0i64; MAX_SCORED_RESOURCES];
    for (i, ((res, _), &pr)) in scorer.resources.iter().zip(pod_requests).enumerate() {
        let (alloc, req) = allocatable_request(node, *res, pr, false, wk, interner);
        if alloc == 0 {
            continue;
        }
        if let (Some(a), Some(r)) = (allocatable.get_mut(i), requested.get_mut(i)) {
            *a = alloc;
            *r = req;
        }
    }
    let n = scorer.resources.len().min(MAX_SCORED_RESOURCES);
    let (requested, allocatable) = (&requested[..n], &allocatable[..n]);
    match scorer.kind {
        ScoringStrategyType::LeastAllocated => weighted(
            &scorer.resources,
            requested,
            allocatable,
            least_requested_score,
        ),
        ScoringStrategyType::MostAllocated => weighted(
            &scorer.resources,
            requested,
            allocatable,
            most_requested_score,
        ),
        ScoringStrategyType::RequestedToCapacityRatio => {
            requested_to_capacity_ratio(&scorer.resources, &scorer.shape, requested, allocatable)
        }
    }
}

/// `leastResourceScorer` / `mostResourceScorer`: weighted integer mean over resources the node has.
fn weighted(
    resources: &[(Sym, i64)],
    requested: &[i64],
    allocatable: &[i64],
    f: fn(i64, i64) -> i64,
) -> i64 {
    let (mut node_score, mut weight_sum) = (0i64, 0i64);
    for (((_, w), &req), &alloc) in resources.iter().zip(requested).zip(allocatable) {
        if alloc == 0 {
            continue;
        }
        node_score += f(req, alloc) * w;
        weight_sum += w;
    }
    if weight_sum == 0 {
        0
    } else {
        node_score / weight_sum
    }
}

/// least_allocated.go `leastRequestedScore`.
pub fn least_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    (capacity - requested) * MAX_NODE_SCORE / capacity
}

/// most_allocated.go `mostRequestedScore`.
pub fn most_requested_score(requested: i64, capacity: i64) -> i64 {
    if capacity == 0 {
        return 0;
    }
    requested.min(capacity) * MAX_NODE_SCORE / capacity
}

/// `helper.BuildBrokenLinearFunction`.
fn broken_linear(shape: &[(i64, i64)], p: i64) -> i64 {
    let mut prev: Option<(i64, i64)> = None;
    for &(u, s) in shape {
        if p <= u {
            return match prev {
                None => s,
                Some((pu, ps)) => ps + (s - ps) * (p - pu) / (u - pu),
            };
        }
        prev = Some((u, s));
    }
    prev.map_or(0, |(_, s)| s)
}

/// requested_to_capacity_ratio.go `buildRequestedToCapacityRatioScorerFunction`.
fn requested_to_capacity_ratio(
    resources: &[(Sym, i64)],
    shape: &[(i64, i64)],
    requested: &[i64],
    allocatable: &[i64],
) -> i64 {
    let (mut node_score, mut weight_sum) = (0i64, 0i64);
    for (((_, w), &req), &alloc) in resources.iter().zip(requested).zip(allocatable) {
        if alloc == 0 {
            continue;
        }
        let resource_score = if req > alloc {
            broken_linear(shape, MAX_UTILIZATION)
        } else {
            broken_linear(shape, req * MAX_UTILIZATION / alloc)
        };
        if resource_score > 0 {
            node_score += resource_score * w;
            weight_sum += w;
        }
    }
    if weight_sum == 0 {
        0
    } else {
        (node_score as f64 / weight_sum as f64).round() as i64
    }
}

fn is_ignored(name: &str, args: &FitArgs) -> bool {
    if !is_extended_resource_name(name) {
        return false;
    }
    let group = name.split('/').next().unwrap_or(name);
    args.ignored_resources.contains(name) || args.ignored_resource_groups.contains(group)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(milli_cpu: i64, memory: i64) -> Resource {
        Resource {
            milli_cpu,
            memory,
            ..Resource::default()
        }
    }

    /// A node of scheduler_perf's template: 4 CPU, 32Gi, 110 pods.
    fn node(requested: Resource, pod_count: i64) -> NodeResources {
        NodeResources {
            allocatable: resource(4000, 32 << 30),
            allowed_pod_number: 110,
            requested,
            pod_count,
        }
    }

    fn reasons(pod: &Resource, node: &NodeResources) -> Vec<String> {
        fits_request(pod, node, &FitArgs::default())
            .into_iter()
            .map(|r| r.reason)
            .collect::<Vec<_>>()
    }

    #[test]
    fn a_pod_that_fits_has_no_reasons() {
        assert!(reasons(&resource(100, 500 << 20), &node(resource(3900, 0), 10)).is_empty());
    }

    #[test]
    fn each_short_resource_is_reported_in_fit_go_order() {
        let pod = resource(200, 1 << 30);
        let full = node(resource(3900, 32 << 30), 110);
        assert_eq!(
            reasons(&pod, &full),
            ["Too many pods", "Insufficient cpu", "Insufficient memory"]
        );
        let cpu = &fits_request(&pod, &full, &FitArgs::default())[1];
        assert_eq!((cpu.requested, cpu.used, cpu.capacity), (200, 3900, 4000));
    }

    #[test]
    fn a_best_effort_pod_is_only_limited_by_pod_count() {
        let full = node(resource(4000, 32 << 30), 109);
        assert!(reasons(&Resource::default(), &full).is_empty());
        let at_capacity = node(Resource::default(), 110);
        assert_eq!(
            reasons(&Resource::default(), &at_capacity),
            ["Too many pods"]
        );
    }

    #[test]
    fn extended_resources_can_be_ignored_by_name_or_group() {
        let mut pod = resource(0, 0);
        pod.scalar.insert("example.com/gpu".into(), 1);
        let n = node(Resource::default(), 0);
        assert_eq!(reasons(&pod, &n), ["Insufficient example.com/gpu"]);
        let by_group = FitArgs {
            ignored_resource_groups: ["example.com".to_string()].into(),
            ..FitArgs::default()
        };
        assert!(fits_request(&pod, &n, &by_group).is_empty());
        // Native scalar resources (hugepages) are never ignored.
        let mut huge = resource(0, 0);
        huge.scalar.insert("hugepages-2Mi".into(), 2 << 20);
        let ignore_all = FitArgs {
            ignored_resources: ["hugepages-2Mi".to_string()].into(),
            ..FitArgs::default()
        };
        assert_eq!(fits_request(&huge, &n, &ignore_all).len(), 1);
    }
}

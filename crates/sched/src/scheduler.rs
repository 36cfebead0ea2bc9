//! The scheduling cycle (pkg/scheduler/schedule_one.go): PreFilter, Filter over a round-robin
//! window of nodes until enough feasible ones are found, PreScore/Score/NormalizeScore with
//! weights, `selectHost`, then assume. Batches run pod after pod against the updated table.

use crate::cluster::{Cluster, NodeEntry};
use crate::error::SchedError;
use crate::explain::{Explanation, FilterVerdict, NodeExplanation, PluginScore};
use crate::fit_error::Diagnosis;
use crate::intern::Sym;
use crate::node::NodeSpec;
use crate::node_hot;
use crate::plugins::{
    image_locality, inter_pod_affinity as ipa, node_affinity, node_name, node_ports,
    node_resources_balanced_allocation as balanced, node_resources_fit as fit, node_unschedulable,
    pod_topology_spread as pts, taint_toleration, PluginId,
};
use crate::pod::PodSpec;
use crate::pod_info::PodInfo;
use crate::preemption::{self, Preemption};
use crate::profile::Profile;
use crate::rng::SplitMix64;
use crate::select::{num_feasible_nodes_to_find, select_host};
use crate::status::{Code, Failure, Reason};

/// schedule_one.go `ErrNoNodesAvailable`.
pub const ERR_NO_NODES_AVAILABLE: &str = "no nodes available to schedule pods";

/// Profile args compiled against the cluster's interner.
#[derive(Debug, Clone)]
pub(crate) struct CompiledArgs {
    pub fit_scorer: fit::CompiledScorer,
    pub balanced: Vec<(Sym, i64)>,
    pub node_affinity: node_affinity::CompiledArgs,
    pub spread: pts::CompiledArgs,
}

/// PreFilter results for one pod.
#[derive(Debug, Default)]
pub(crate) struct CycleState {
    pub node_affinity: Option<node_affinity::PreFilter>,
    pub ports: bool,
    pub ipa: Option<ipa::FilterState>,
    pub pts: Option<pts::FilterState>,
}

/// A filter plugin's verdict on one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    Pass,
    Skip,
    Fail(Failure),
}

/// The outcome of scheduling one pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// `namespace/name`.
    pub pod: String,
    /// The chosen node; the pod is now assumed there.
    pub node: Option<String>,
    /// Nodes the filters looked at.
    pub evaluated_nodes: usize,
    pub feasible_nodes: usize,
    /// The FailedScheduling message when no node fits.
    pub message: Option<String>,
    /// Set by preemption: the node the pod waits for once the victims are gone.
    pub nominated_node: Option<String>,
    /// `namespace/name` of the pods preemption evicted (removed from the table).
    pub victims: Vec<String>,
    /// When no node fits: the plugins that rejected the pod, sorted (`Diagnosis.UnschedulablePlugins`,
    /// which `handleSchedulingFailure` hands to the queue). Empty for `ERR_NO_NODES_AVAILABLE`,
    /// which is not a FitError: the pod then backs off whatever happens.
    pub unschedulable_plugins: Vec<&'static str>,
}

/// Per node slot: the resource score last computed, valid while the node's generation and the
/// pod's request signature are unchanged (identical pods in a batch skip the divisions).
#[derive(Debug, Default, Clone, Copy)]
struct ScoreCacheEntry {
    generation: u64,
    signature: u64,
    score: i64,
}

#[derive(Debug, Default)]
struct Scratch {
    fit_cache: Vec<ScoreCacheEntry>,
    balanced_cache: Vec<ScoreCacheEntry>,
    candidates: Vec<u32>,
    feasible: Vec<u32>,
    failures: Vec<(u32, Failure)>,
    plugin_scores: Vec<Vec<i64>>,
    raw_scores: Vec<Vec<i64>>,
    skipped: Vec<bool>,
    totals: Vec<i64>,
}

struct Decision {
    node: Option<u32>,
    evaluated: usize,
    feasible: usize,
    diagnosis: Option<Diagnosis>,
    num_to_find: usize,
    scored: bool,
}

/// The engine: a cluster table, a resolved profile and the scheduling state across cycles.
#[derive(Debug)]
pub struct Scheduler {
    cluster: Cluster,
    profile: Profile,
    args: CompiledArgs,
    next_start: usize,
    rng: SplitMix64,
    scratch: Scratch,
}

impl Scheduler {
    /// A scheduler with `profile`, tie-breaks drawn from `seed`.
    pub fn new(profile: Profile, seed: u64) -> Result<Scheduler, SchedError> {
        let mut cluster = Cluster::new();
        let i = &mut cluster.interner;
        let args = CompiledArgs {
            fit_scorer: fit::CompiledScorer::compile(&profile.fit.scoring_strategy, i)?,
            balanced: fit::compile_resources(&profile.balanced_resources, i)?,
            node_affinity: node_affinity::CompiledArgs::compile(&profile.node_affinity, i)?,
            spread: pts::CompiledArgs::compile(&profile.pod_topology_spread, i)?,
        };
        Ok(Scheduler {
            cluster,
            profile,
            args,
            next_start: 0,
            rng: SplitMix64::new(seed),
            scratch: Scratch::default(),
        })
    }

    /// kube-scheduler's default profile.
    pub fn with_default_profile(seed: u64) -> Scheduler {
        match Scheduler::new(Profile::default_profile(), seed) {
            Ok(s) => s,
            // Unreachable: the built-in defaults validate. Degrade to an inert engine rather
            // than panic.
            Err(_) => Scheduler {
                cluster: Cluster::new(),
                profile: Profile::default_profile(),
                args: CompiledArgs {
                    fit_scorer: fit::CompiledScorer {
                        kind: fit::ScoringStrategyType::LeastAllocated,
                        resources: Vec::new(),
                        shape: Vec::new(),
                    },
                    balanced: Vec::new(),
                    node_affinity: node_affinity::CompiledArgs::default(),
                    spread: pts::CompiledArgs::empty(),
                },
                next_start: 0,
                rng: SplitMix64::new(seed),
                scratch: Scratch::default(),
            },
        }
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    pub fn cluster(&self) -> &Cluster {
        &self.cluster
    }

    // ----- table updates -----

    /// Adds a node or updates the node of that name.
    pub fn upsert_node(&mut self, node: &NodeSpec) -> Result<(), SchedError> {
        self.cluster.upsert_node(node).map(|_| ())
    }

    /// Removes a node and the pods on it.
    pub fn remove_node(&mut self, name: &str) -> Result<(), SchedError> {
        self.cluster.remove_node(name)
    }

    /// Adds a bound pod (`spec.nodeName` set). A pod the scheduler assumed is confirmed (and
    /// moved if the binding names another node).
    pub fn add_pod(&mut self, pod: &PodSpec) -> Result<(), SchedError> {
        let node_name = pod.node_name.as_deref().ok_or_else(|| {
            SchedError::InvalidField(format!("pod {} has no nodeName", pod.key()))
        })?;
        let slot = self
            .cluster
            .node_slot(node_name)
            .ok_or_else(|| SchedError::UnknownNode(node_name.into()))?;
        let key = pod.key();
        if let Some(existing) = self.cluster.pod_by_key(&key) {
            if existing.assumed && existing.node == slot {
                return self.cluster.confirm_pod(&key);
            }
            self.cluster.remove_pod(&key)?;
        }
        let info = PodInfo::compile(pod, &mut self.cluster.interner)?;
        self.cluster.add_pod(info, slot, false).map(|_| ())
    }

    /// Places a pod on `node` as the scheduler's own assumption (`cache.AssumePod`).
    pub fn assume_pod(&mut self, pod: &PodSpec, node: &str) -> Result<(), SchedError> {
        let slot = self
            .cluster
            .node_slot(node)
            .ok_or_else(|| SchedError::UnknownNode(node.into()))?;
        let mut pod = pod.clone();
        pod.node_name = Some(node.into());
        let info = PodInfo::compile(&pod, &mut self.cluster.interner)?;
        self.cluster.add_pod(info, slot, true).map(|_| ())
    }

    /// Confirms an assumed pod is bound (`cache.FinishBinding`).
    pub fn bind_pod(&mut self, namespace: &str, name: &str) -> Result<(), SchedError> {
        self.cluster.confirm_pod(&format!("{namespace}/{name}"))
    }

    /// Removes a pod: deleted, or an assumed pod whose binding failed (`cache.ForgetPod`).
    pub fn remove_pod(&mut self, namespace: &str, name: &str) -> Result<(), SchedError> {
        self.cluster
            .remove_pod(&format!("{namespace}/{name}"))
            .map(|_| ())
    }

    /// Sets a namespace's labels (used by affinity terms' namespaceSelector).
    pub fn set_namespace_labels(&mut self, namespace: &str, labels: &[(String, String)]) {
        self.cluster.set_namespace_labels(namespace, labels);
    }

    // ----- scheduling -----

    /// Schedules one pod and, on success, assumes it on the chosen node.
    pub fn schedule_one(&mut self, pod: &PodSpec) -> Result<Placement, SchedError> {
        if self.cluster.pod_by_key(&pod.key()).is_some() {
            return Err(SchedError::DuplicatePod(pod.key()));
        }
        let info = PodInfo::compile(pod, &mut self.cluster.interner)?;
        let (decision, _) = self.cycle(&info, false, true);
        let mut placement = Placement {
            pod: info.key.clone(),
            node: None,
            evaluated_nodes: decision.evaluated,
            feasible_nodes: decision.feasible,
            message: None,
            nominated_node: None,
            victims: Vec::new(),
            unschedulable_plugins: Vec::new(),
        };
        match decision.node {
            Some(slot) => {
                placement.node = self.cluster.node(slot).map(|n| n.name.clone());
                let mut info = info;
                info.node_name = self.cluster.node(slot).map(|n| n.name_sym);
                self.cluster.add_pod(info, slot, true)?;
            }
            None if self.cluster.num_nodes() == 0 => {
                placement.message = Some(ERR_NO_NODES_AVAILABLE.into());
            }
            None => {
                let mut diagnosis = decision.diagnosis.unwrap_or_default();
                if self.profile.preemption {
                    let rejected_all = diagnosis.pre_filter.is_some();
                    match preemption::preempt(self, &info, rejected_all) {
                        Preemption::Nominated { node, victims } => {
                            for v in &victims {
                                self.cluster.remove_pod(v)?;
                            }
                            placement.nominated_node = Some(node);
                            placement.victims = victims;
                        }
                        Preemption::NotHelpful(msg) => diagnosis.post_filter_msg = Some(msg),
                    }
                }
                placement.message =
                    Some(diagnosis.message(self.cluster.num_nodes(), &self.cluster.interner));
                placement.unschedulable_plugins = diagnosis.unschedulable_plugins.names();
            }
        }
        Ok(placement)
    }

    /// Schedules pods one after another (each sees the previous ones assumed).
    pub fn schedule_batch(&mut self, pods: &[PodSpec]) -> Vec<Result<Placement, SchedError>> {
        pods.iter().map(|p| self.schedule_one(p)).collect()
    }

    /// Explains how `pod` would be scheduled now, without changing any state.
    pub fn explain(&mut self, pod: &PodSpec) -> Result<Explanation, SchedError> {
        let info = PodInfo::compile(pod, &mut self.cluster.interner)?;
        let saved = (self.next_start, self.rng.clone());
        let (decision, cs) = self.cycle(&info, true, false);
        let (next_start, rng) = saved;
        self.next_start = next_start;
        self.rng = rng;
        let s = &self.scratch;
        let list: Vec<u32> = self.cluster.node_list().to_vec();
        let mut examined = vec![false; self.cluster.node_slots()];
        for &slot in s.feasible.iter().chain(s.failures.iter().map(|(n, _)| n)) {
            if let Some(e) = examined.get_mut(slot as usize) {
                *e = true;
            }
        }
        let mut nodes = Vec::with_capacity(list.len());
        for slot in list {
            let Some(node) = self.cluster.node(slot) else {
                continue;
            };
            let mut filters = Vec::with_capacity(self.profile.filters.len());
            let mut feasible = true;
            for &id in &self.profile.filters {
                let verdict = run_filter(
                    &self.cluster,
                    &self.profile,
                    &self.args,
                    &cs,
                    id,
                    &info,
                    node,
                );
                let (code, reasons) = match verdict {
                    Verdict::Pass => (Code::Success, Vec::new()),
                    Verdict::Skip => (Code::Skip, Vec::new()),
                    Verdict::Fail(f) => {
                        feasible = false;
                        (
                            f.code,
                            f.reasons()
                                .iter()
                                .map(|r| r.render(&self.cluster.interner))
                                .collect(),
                        )
                    }
                };
                filters.push(FilterVerdict {
                    plugin: id.name(),
                    code: code.as_str(),
                    reasons,
                });
            }
            let mut scores = Vec::new();
            let mut total = None;
            if decision.scored {
                if let Some(i) = s.feasible.iter().position(|&f| f == slot) {
                    for (k, &(id, weight)) in self.profile.scores.iter().enumerate() {
                        let skipped = s.skipped.get(k).copied().unwrap_or(true);
                        let raw = s
                            .raw_scores
                            .get(k)
                            .and_then(|v| v.get(i))
                            .copied()
                            .unwrap_or(0);
                        let normalized = s
                            .plugin_scores
                            .get(k)
                            .and_then(|v| v.get(i))
                            .copied()
                            .unwrap_or(0);
                        scores.push(PluginScore {
                            plugin: id.name(),
                            weight,
                            skipped,
                            raw: if skipped { 0 } else { raw },
                            normalized: if skipped { 0 } else { normalized },
                            weighted: if skipped { 0 } else { normalized * weight },
                        });
                    }
                    total = s.totals.get(i).copied();
                }
            }
            nodes.push(NodeExplanation {
                node: node.name.clone(),
                filters,
                feasible,
                examined: examined.get(slot as usize).copied().unwrap_or(false),
                scores,
                total,
            });
        }
        let message = decision
            .diagnosis
            .as_ref()
            .map(|d| d.message(self.cluster.num_nodes(), &self.cluster.interner));
        Ok(Explanation {
            pod: info.key,
            nodes,
            num_feasible_nodes_to_find: decision.num_to_find,
            chosen: decision
                .node
                .and_then(|s| self.cluster.node(s))
                .map(|n| n.name.clone()),
            message,
        })
    }

    /// Runs PreFilter and the filters of `info` against the node `slot` as the table is now
    /// (preemption's trial evaluations). `None` means the pod fits.
    pub(crate) fn filter_on(&mut self, info: &PodInfo, slot: u32) -> Option<Failure> {
        let (cs, rejected) = pre_filter(&mut self.cluster, &self.profile, &self.args, info);
        if rejected.is_some() {
            return rejected;
        }
        let node = self.cluster.node(slot)?;
        if let Some(node_affinity::PreFilter::Run(Some(names))) = &cs.node_affinity {
            if !names.contains(&node.name_sym) {
                return Some(Failure::new(
                    Code::UnschedulableAndUnresolvable,
                    PluginId::NodeAffinity,
                    Reason::PluginsNotSatisfied(PluginId::NodeAffinity),
                ));
            }
        }
        first_failure(&self.cluster, &self.profile, &self.args, &cs, info, node)
    }

    pub(crate) fn cluster_mut(&mut self) -> &mut Cluster {
        &mut self.cluster
    }

    /// Node slots in snapshot order with their filter failure from the last cycle.
    pub(crate) fn last_failures(&self) -> Vec<(u32, Failure)> {
        self.scratch.failures.clone()
    }

    pub(crate) fn rng_mut(&mut self) -> &mut SplitMix64 {
        &mut self.rng
    }

    /// One scheduling cycle. `record` keeps raw scores for explain; `commit` advances the
    /// round-robin start.
    fn cycle(&mut self, pod: &PodInfo, record: bool, commit: bool) -> (Decision, CycleState) {
        self.cluster.matchers.trim();
        let (cs, rejected) = pre_filter(&mut self.cluster, &self.profile, &self.args, pod);
        let num_all = self.cluster.num_nodes();
        let s = &mut self.scratch;
        s.feasible.clear();
        s.failures.clear();
        if let Some(f) = rejected {
            let diagnosis = Diagnosis::rejected_at_pre_filter(f);
            let d = Decision {
                node: None,
                evaluated: 0,
                feasible: 0,
                diagnosis: Some(diagnosis),
                num_to_find: 0,
                scored: false,
            };
            return (d, cs);
        }
        s.candidates.clear();
        self.cluster.refresh_list();
        let cl = &self.cluster;
        let list = cl.list();
        let candidates: &[u32] =
            match &cs.node_affinity {
                Some(node_affinity::PreFilter::Run(Some(names))) => {
                    s.candidates.extend(list.iter().copied().filter(|&slot| {
                        cl.node(slot).is_some_and(|n| names.contains(&n.name_sym))
                    }));
                    &s.candidates
                }
                _ => list,
            };
        let absent = num_all - candidates.len();
        let n = candidates.len();
        let num_to_find = num_feasible_nodes_to_find(self.profile.percentage_of_nodes_to_score, n);
        let cl = &self.cluster;
        let active = active_filters(&self.profile, &cs, pod);
        // Fast path: only resource/taint/cordon filters and no extended resources. A node whose
        // compact numbers pass is feasible; anything else takes the full path for its reasons.
        let simple = pod.scalar.is_empty()
            && active.as_slice().iter().all(|id| {
                matches!(
                    id,
                    PluginId::NodeUnschedulable
                        | PluginId::TaintToleration
                        | PluginId::NodeResourcesFit
                )
            });
        let r = &pod.requests;
        if n > 0 {
            let start = self.next_start % n;
            for i in 0..n {
                let Some(&slot) = candidates.get((start + i) % n) else {
                    break;
                };
                if simple {
                    if let Some(h) = cl.hot(slot) {
                        if h.flags & (node_hot::UNSCHEDULABLE | node_hot::HARD_TAINTS) == 0
                            && h.fits(r.milli_cpu, r.memory, r.ephemeral_storage)
                        {
                            s.feasible.push(slot);
                            if s.feasible.len() >= num_to_find {
                                break;
                            }
                            continue;
                        }
                    }
                }
                let Some(node) = cl.node(slot) else { continue };
                match first_failure_of(
                    active.as_slice(),
                    cl,
                    &self.profile,
                    &self.args,
                    &cs,
                    pod,
                    node,
                ) {
                    None => {
                        s.feasible.push(slot);
                        if s.feasible.len() >= num_to_find {
                            break;
                        }
                    }
                    Some(f) => s.failures.push((slot, f)),
                }
            }
            if commit {
                self.next_start = (start + s.feasible.len() + s.failures.len()) % n;
            }
        }
        let evaluated = s.feasible.len() + s.failures.len();
        let feasible = s.feasible.len();
        if feasible == 0 {
            let mut diagnosis = Diagnosis::default();
            for (_, f) in &s.failures {
                diagnosis.add(f);
            }
            diagnosis.add_many(Reason::PluginsNotSatisfied(PluginId::NodeAffinity), absent);
            // RunPreFilterPlugins' pluginsWithNodes: a node-name result counts as a rejection
            // whether or not it left a node out (findNodesThatFitPod).
            if matches!(
                cs.node_affinity,
                Some(node_affinity::PreFilter::Run(Some(_)))
            ) {
                diagnosis
                    .unschedulable_plugins
                    .insert(PluginId::NodeAffinity);
            }
            let d = Decision {
                node: None,
                evaluated,
                feasible,
                diagnosis: Some(diagnosis),
                num_to_find,
                scored: false,
            };
            return (d, cs);
        }
        if feasible == 1 && !record {
            let d = Decision {
                node: s.feasible.first().copied(),
                evaluated,
                feasible,
                diagnosis: None,
                num_to_find,
                scored: false,
            };
            return (d, cs);
        }
        let single = feasible == 1;
        self.score(pod, record);
        let s = &mut self.scratch;
        let chosen = if single {
            s.feasible.first().copied()
        } else {
            select_host(&s.totals, &mut self.rng).and_then(|i| s.feasible.get(i).copied())
        };
        let d = Decision {
            node: chosen,
            evaluated,
            feasible,
            diagnosis: None,
            num_to_find,
            scored: true,
        };
        (d, cs)
    }

    /// PreScore, Score, NormalizeScore and weights over `scratch.feasible` into `scratch.totals`.
    fn score(&mut self, pod: &PodInfo, record: bool) {
        let num_plugins = self.profile.scores.len();
        let s = &mut self.scratch;
        s.plugin_scores.resize_with(num_plugins, Vec::new);
        s.raw_scores.resize_with(num_plugins, Vec::new);
        s.skipped.clear();
        s.skipped.resize(num_plugins, false);
        s.totals.clear();
        s.totals.resize(s.feasible.len(), 0);
        let wk = self.cluster.wk;
        for (k, &(id, weight)) in self.profile.scores.iter().enumerate() {
            let feasible = std::mem::take(&mut self.scratch.feasible);
            let mut out = self
                .scratch
                .plugin_scores
                .get_mut(k)
                .map(std::mem::take)
                .unwrap_or_default();
            out.clear();
            let cl = &mut self.cluster;
            let skipped = match id {
                PluginId::TaintToleration => {
                    let tols = taint_toleration::pre_score(pod);
                    if cl.prefer_taint_nodes() == 0 {
                        // No node has a PreferNoSchedule taint: every raw score is 0.
                        out.resize(feasible.len(), 0);
                    }
                    for &slot in feasible.iter().skip(out.len()) {
                        let prefer = cl
                            .hot(slot)
                            .is_some_and(|h| h.flags & node_hot::PREFER_TAINTS != 0);
                        out.push(if prefer {
                            cl.node(slot)
                                .map_or(0, |n| taint_toleration::score(&tols, n))
                        } else {
                            0
                        });
                    }
                    keep_raw(record, &out, &mut self.scratch.raw_scores, k);
                    taint_toleration::normalize(&mut out);
                    false
                }
                PluginId::NodeAffinity => {
                    if node_affinity::skip_score(pod, &self.args.node_affinity) {
                        true
                    } else {
                        let a = &self.args.node_affinity;
                        let interner = &cl.interner;
                        for &slot in &feasible {
                            out.push(
                                cl.node(slot)
                                    .map_or(0, |n| node_affinity::score(pod, a, n, interner)),
                            );
                        }
                        keep_raw(record, &out, &mut self.scratch.raw_scores, k);
                        node_affinity::normalize(&mut out);
                        false
                    }
                }
                PluginId::NodeResourcesFit => {
                    let scorer = &self.args.fit_scorer;
                    let reqs: Vec<i64> = scorer
                        .resources
                        .iter()
                        .map(|(r, _)| fit::pod_request(pod, *r, false, &wk))
                        .collect();
                    let interner = &cl.interner;
                    let cache = &mut self.scratch.fit_cache;
                    let sig = signature(&reqs);
                    for &slot in &feasible {
                        let generation = cl.hot(slot).map_or(0, |h| h.generation);
                        out.push(cached(cache, slot, generation, sig, || {
                            cl.node(slot)
                                .map_or(0, |n| fit::score(scorer, &reqs, n, &wk, interner))
                        }));
                    }
                    keep_raw(record, &out, &mut self.scratch.raw_scores, k);
                    false
                }
                PluginId::NodeResourcesBalancedAllocation => {
                    match balanced::pre_score(pod, &self.args.balanced, &wk) {
                        None => true,
                        Some(reqs) => {
                            let interner = &cl.interner;
                            let cache = &mut self.scratch.balanced_cache;
                            let sig = signature(&reqs);
                            let resources = &self.args.balanced;
                            for &slot in &feasible {
                                let generation = cl.hot(slot).map_or(0, |h| h.generation);
                                out.push(cached(cache, slot, generation, sig, || {
                                    cl.node(slot).map_or(0, |n| {
                                        balanced::score(resources, &reqs, n, &wk, interner)
                                    })
                                }));
                            }
                            keep_raw(record, &out, &mut self.scratch.raw_scores, k);
                            false
                        }
                    }
                }
                PluginId::ImageLocality => {
                    let images = image_locality::pre_score(pod, cl);
                    if images.is_empty() {
                        let constant = image_locality::calculate_priority(0, pod.num_containers);
                        out.resize(feasible.len(), constant);
                    } else {
                        for &slot in &feasible {
                            out.push(
                                cl.node(slot)
                                    .map_or(0, |n| image_locality::score(pod, &images, n)),
                            );
                        }
                    }
                    keep_raw(record, &out, &mut self.scratch.raw_scores, k);
                    false
                }
                PluginId::PodTopologySpread => {
                    match pts::pre_score(cl, pod, &self.args.spread, &feasible) {
                        None => true,
                        Some(state) => {
                            for (i, &slot) in feasible.iter().enumerate() {
                                out.push(
                                    cl.node(slot)
                                        .map_or(0, |n| pts::score(&state, cl, i, slot, n)),
                                );
                            }
                            keep_raw(record, &out, &mut self.scratch.raw_scores, k);
                            pts::normalize(&state, &mut out);
                            false
                        }
                    }
                }
                PluginId::InterPodAffinity => {
                    match ipa::pre_score(cl, pod, &self.profile.inter_pod_affinity) {
                        None => true,
                        Some(state) => {
                            for &slot in &feasible {
                                out.push(cl.node(slot).map_or(0, |n| ipa::score(&state, n)));
                            }
                            keep_raw(record, &out, &mut self.scratch.raw_scores, k);
                            ipa::normalize(&mut out);
                            false
                        }
                    }
                }
                _ => true,
            };
            let s = &mut self.scratch;
            if !skipped {
                for (t, v) in s.totals.iter_mut().zip(&out) {
                    *t += v * weight;
                }
            }
            if let Some(sk) = s.skipped.get_mut(k) {
                *sk = skipped;
            }
            if let Some(slot) = s.plugin_scores.get_mut(k) {
                *slot = out;
            }
            s.feasible = feasible;
        }
    }
}

/// A hash of a pod's per-resource requests (the only pod input of the resource scores).
fn signature(reqs: &[i64]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = crate::hash::FxHasher::default();
    reqs.hash(&mut h);
    h.finish() | 1
}

/// The cached score of `slot` if still valid, else computes and stores it.
#[inline]
fn cached(
    cache: &mut Vec<ScoreCacheEntry>,
    slot: u32,
    generation: u64,
    signature: u64,
    f: impl FnOnce() -> i64,
) -> i64 {
    let i = slot as usize;
    if cache.len() <= i {
        cache.resize(i + 1, ScoreCacheEntry::default());
    }
    match cache.get_mut(i) {
        Some(e) if e.generation == generation && e.signature == signature => e.score,
        Some(e) => {
            let score = f();
            *e = ScoreCacheEntry {
                generation,
                signature,
                score,
            };
            score
        }
        None => f(),
    }
}

fn keep_raw(record: bool, out: &[i64], raw: &mut [Vec<i64>], k: usize) {
    if record {
        if let Some(r) = raw.get_mut(k) {
            r.clear();
            r.extend_from_slice(out);
        }
    }
}

/// Runs the PreFilter of every enabled filter plugin; a rejection applies to all nodes.
pub(crate) fn pre_filter(
    cluster: &mut Cluster,
    profile: &Profile,
    args: &CompiledArgs,
    pod: &PodInfo,
) -> (CycleState, Option<Failure>) {
    let mut cs = CycleState::default();
    let mut rejected = None;
    for &id in &profile.filters {
        match id {
            PluginId::NodeAffinity => {
                let r = node_affinity::pre_filter(pod, &args.node_affinity);
                if r == node_affinity::PreFilter::Conflict && rejected.is_none() {
                    rejected = Some(Failure::new(
                        Code::UnschedulableAndUnresolvable,
                        PluginId::NodeAffinity,
                        Reason::NodeAffinityConflict,
                    ));
                }
                cs.node_affinity = Some(r);
            }
            PluginId::NodePorts => cs.ports = !pod.host_ports.is_empty(),
            PluginId::InterPodAffinity => cs.ipa = ipa::pre_filter(cluster, pod),
            PluginId::PodTopologySpread => cs.pts = pts::pre_filter(cluster, pod, &args.spread),
            _ => {}
        }
    }
    (cs, rejected)
}

/// The enabled filters that did not Skip at PreFilter, in profile order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ActiveFilters {
    ids: [PluginId; PluginId::ALL.len()],
    len: usize,
}

impl ActiveFilters {
    pub fn as_slice(&self) -> &[PluginId] {
        self.ids.get(..self.len).unwrap_or(&[])
    }
}

pub(crate) fn active_filters(profile: &Profile, cs: &CycleState, pod: &PodInfo) -> ActiveFilters {
    let mut a = ActiveFilters {
        ids: [PluginId::NodeName; PluginId::ALL.len()],
        len: 0,
    };
    for &id in &profile.filters {
        let skip = match id {
            PluginId::NodeName => pod.node_name.is_none(),
            PluginId::NodeAffinity => {
                matches!(
                    cs.node_affinity,
                    None | Some(node_affinity::PreFilter::Skip)
                )
            }
            PluginId::NodePorts => !cs.ports,
            PluginId::PodTopologySpread => cs.pts.is_none(),
            PluginId::InterPodAffinity => cs.ipa.is_none(),
            _ => false,
        };
        if !skip {
            if let Some(slot) = a.ids.get_mut(a.len) {
                *slot = id;
                a.len += 1;
            }
        }
    }
    a
}

/// `RunFilterPlugins` over the active filters: the first failing plugin's status.
#[inline]
pub(crate) fn first_failure_of(
    active: &[PluginId],
    cluster: &Cluster,
    profile: &Profile,
    args: &CompiledArgs,
    cs: &CycleState,
    pod: &PodInfo,
    node: &NodeEntry,
) -> Option<Failure> {
    for &id in active {
        if let Verdict::Fail(f) = run_filter(cluster, profile, args, cs, id, pod, node) {
            return Some(f);
        }
    }
    None
}

/// `RunFilterPlugins`: the first failing plugin's status, in profile order.
#[inline]
pub(crate) fn first_failure(
    cluster: &Cluster,
    profile: &Profile,
    args: &CompiledArgs,
    cs: &CycleState,
    pod: &PodInfo,
    node: &NodeEntry,
) -> Option<Failure> {
    first_failure_of(&profile.filters, cluster, profile, args, cs, pod, node)
}

#[inline]
pub(crate) fn run_filter(
    cluster: &Cluster,
    profile: &Profile,
    args: &CompiledArgs,
    cs: &CycleState,
    id: PluginId,
    pod: &PodInfo,
    node: &NodeEntry,
) -> Verdict {
    let r = match id {
        PluginId::NodeUnschedulable => node_unschedulable::filter(pod, node, &cluster.wk),
        PluginId::NodeName => node_name::filter(pod, node),
        PluginId::TaintToleration => taint_toleration::filter(pod, node),
        PluginId::NodeAffinity => match &cs.node_affinity {
            None | Some(node_affinity::PreFilter::Skip) => return Verdict::Skip,
            Some(_) => node_affinity::filter(pod, &args.node_affinity, node, &cluster.interner),
        },
        PluginId::NodePorts => {
            if !cs.ports {
                return Verdict::Skip;
            }
            node_ports::filter(&pod.host_ports, node, cluster.wk.any_ip)
        }
        PluginId::NodeResourcesFit => {
            fit::filter(pod, node, &profile.fit, &cluster.wk, &cluster.interner)
        }
        PluginId::PodTopologySpread => match &cs.pts {
            None => return Verdict::Skip,
            Some(s) => pts::filter(s, node, cluster),
        },
        PluginId::InterPodAffinity => match &cs.ipa {
            None => return Verdict::Skip,
            Some(s) => ipa::filter(s, pod, node, cluster),
        },
        _ => return Verdict::Skip,
    };
    match r {
        None => Verdict::Pass,
        Some(f) => Verdict::Fail(f),
    }
}

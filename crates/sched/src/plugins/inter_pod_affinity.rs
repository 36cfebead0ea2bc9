//! InterPodAffinity (interpodaffinity/filtering.go, scoring.go): required pod affinity and
//! anti-affinity of the incoming pod, existing pods' required anti-affinity, and the preferred
//! terms of both as a score. Counts come from the cluster's matcher and term indexes.

use crate::cluster::{Cluster, NodeEntry};
use crate::events::action_type::{ADD, DELETE, UPDATE_POD_LABEL};
use crate::events::{
    on, ClusterEvent,
    EventResource::{Node, Pod},
    NODE_ADD,
};
use crate::hash::FxHashMap;
use crate::intern::Sym;
use crate::matcher_cache::MatcherKey;
use crate::plugins::{PluginId, MAX_NODE_SCORE};
use crate::pod_info::PodInfo;
use crate::status::{Code, Failure, Reason};
use crate::term_index::TermKind;

pub const NAME: &str = "InterPodAffinity";

/// `EventsToRegister` (interpodaffinity/plugin.go): pods appearing, relabelled or leaving; nodes
/// appearing or relabelled.
pub const EVENTS_TO_REGISTER: &[ClusterEvent] =
    &[on(Pod, ADD | UPDATE_POD_LABEL | DELETE), on(Node, NODE_ADD)];

/// `config.DefaultHardPodAffinityWeight` (pkg/scheduler/apis/config/v1/defaults.go).
pub const DEFAULT_HARD_POD_AFFINITY_WEIGHT: i64 = 1;

/// `InterPodAffinityArgs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterPodAffinityArgs {
    /// 0..=100.
    pub hard_pod_affinity_weight: i64,
    pub ignore_preferred_terms_of_existing_pods: bool,
}

impl Default for InterPodAffinityArgs {
    fn default() -> Self {
        InterPodAffinityArgs {
            hard_pod_affinity_weight: DEFAULT_HARD_POD_AFFINITY_WEIGHT,
            ignore_preferred_terms_of_existing_pods: false,
        }
    }
}

type TopologyCounts = FxHashMap<(Sym, Sym), i64>;

/// PreFilter state (`preFilterState`), as references into the cluster's incremental indexes
/// instead of materialized topology maps.
#[derive(Debug, Default)]
pub struct FilterState {
    /// Existing pods' required anti-affinity term groups that match the incoming pod, with
    /// whether their key is hostname-like (per-node counts suffice).
    existing_anti: Vec<(Sym, usize, bool)>,
    /// Matcher of "existing pod matches all the incoming pod's required affinity terms".
    affinity: Option<usize>,
    /// Some existing pod matches them on a node with the term's key (`len(affinityCounts) > 0`).
    affinity_any: bool,
    /// `(topology key, matcher, hostname-like)` per required anti-affinity term.
    anti: Vec<(Sym, usize, bool)>,
    /// The pod matches all of its own required affinity terms.
    self_match: bool,
}

/// PreFilter; `None` is Skip (no required terms and no existing pod with required anti-affinity).
pub fn pre_filter(cluster: &mut Cluster, pod: &PodInfo) -> Option<FilterState> {
    if pod.required_affinity.is_empty()
        && pod.required_anti_affinity.is_empty()
        && !cluster.terms.has_required_anti_affinity()
    {
        return None;
    }
    let mut s = FilterState::default();
    // Existing pods' anti-affinity terms that match the incoming pod.
    let ns_labels = cluster.ns_labels(pod.namespace);
    for (i, g) in cluster.terms.groups_indexed() {
        if g.kind == TermKind::RequiredAntiAffinity
            && !g.per_value.is_empty()
            && g.term
                .matches(pod.namespace, &pod.labels, ns_labels, &cluster.interner)
        {
            s.existing_anti.push((g.term.topology_key, i, false));
        }
    }
    for e in &mut s.existing_anti {
        cluster.ensure_topology_key(e.0);
        e.2 = cluster.key_is_unique(e.0);
    }
    if !pod.required_affinity.is_empty() {
        s.self_match = pod.required_affinity.iter().all(|t| {
            let ns_labels = cluster.ns_labels(pod.namespace);
            t.matches(pod.namespace, &pod.labels, ns_labels, &cluster.interner)
        });
        let m = cluster.matcher(MatcherKey::AllTerms(pod.required_affinity.clone()));
        for t in &pod.required_affinity {
            cluster.ensure_domain_counts(m, t.topology_key);
        }
        s.affinity_any = pod.required_affinity.iter().any(|t| {
            cluster
                .domain_counts(m, t.topology_key)
                .is_some_and(|d| !d.is_empty())
        });
        s.affinity = Some(m);
    }
    for t in &pod.required_anti_affinity {
        let m = cluster.matcher(MatcherKey::Term(t.clone()));
        cluster.ensure_domain_counts(m, t.topology_key);
        s.anti
            .push((t.topology_key, m, cluster.key_is_unique(t.topology_key)));
    }
    Some(s)
}

#[inline]
fn domain_count(cluster: &Cluster, m: usize, key: Sym, value: Sym) -> i64 {
    cluster
        .domain_counts(m, key)
        .and_then(|d| d.get(&value))
        .copied()
        .unwrap_or(0)
}

#[inline]
pub fn filter(
    s: &FilterState,
    pod: &PodInfo,
    node: &NodeEntry,
    cluster: &Cluster,
) -> Option<Failure> {
    // satisfyPodAffinity
    if let Some(m) = s.affinity {
        let mut pods_exist = true;
        for t in &pod.required_affinity {
            match node.labels.get(t.topology_key) {
                Some(v) => {
                    if domain_count(cluster, m, t.topology_key, v) <= 0 {
                        pods_exist = false;
                    }
                }
                None => return Some(affinity_failure()),
            }
        }
        // The first pod of a group with affinity to itself may go anywhere with the keys.
        let first_of_its_kind = !s.affinity_any && s.self_match;
        if !(pods_exist || first_of_its_kind) {
            return Some(affinity_failure());
        }
    }
    // satisfyPodAntiAffinity
    for &(key, m, unique) in &s.anti {
        if let Some(v) = node.labels.get(key) {
            let count = if unique {
                cluster
                    .matchers
                    .counts(m)
                    .get(node.slot as usize)
                    .map_or(0, |&c| i64::from(c))
            } else {
                domain_count(cluster, m, key, v)
            };
            if count > 0 {
                return Some(Failure::new(
                    Code::Unschedulable,
                    PluginId::InterPodAffinity,
                    Reason::AntiAffinityRulesNotMatch,
                ));
            }
        }
    }
    // satisfyExistingPodsAntiAffinity
    for &(key, g, unique) in &s.existing_anti {
        let Some(v) = node.labels.get(key) else {
            continue;
        };
        let Some(group) = cluster.terms.group(g) else {
            continue;
        };
        let count = if unique {
            group.per_slot.get(node.slot as usize).copied().unwrap_or(0)
        } else {
            group.per_value.get(&v).copied().unwrap_or(0)
        };
        if count > 0 {
            return Some(Failure::new(
                Code::Unschedulable,
                PluginId::InterPodAffinity,
                Reason::ExistingAntiAffinityRulesNotMatch,
            ));
        }
    }
    None
}

fn affinity_failure() -> Failure {
    Failure::new(
        Code::UnschedulableAndUnresolvable,
        PluginId::InterPodAffinity,
        Reason::AffinityRulesNotMatch,
    )
}

/// PreScore state: the `topologyScore` map.
#[derive(Debug, Default)]
pub struct ScoreState {
    topology_score: TopologyCounts,
    keys: Vec<Sym>,
}

/// PreScore; `None` is Skip (nothing contributes to any node).
pub fn pre_score(
    cluster: &mut Cluster,
    pod: &PodInfo,
    args: &InterPodAffinityArgs,
) -> Option<ScoreState> {
    let has_constraints =
        !pod.preferred_affinity.is_empty() || !pod.preferred_anti_affinity.is_empty();
    if args.ignore_preferred_terms_of_existing_pods && !has_constraints {
        return None;
    }
    let mut s = ScoreState::default();
    let mut seen = false;
    // The incoming pod's preferred terms matched by existing pods.
    for (weight, sign, t) in pod
        .preferred_affinity
        .iter()
        .map(|(w, t)| (*w, 1i64, t))
        .chain(
            pod.preferred_anti_affinity
                .iter()
                .map(|(w, t)| (*w, -1i64, t)),
        )
    {
        let m = cluster.matcher(MatcherKey::Term(t.clone()));
        cluster.ensure_domain_counts(m, t.topology_key);
        if let Some(d) = cluster.domain_counts(m, t.topology_key) {
            for (&v, &c) in d {
                *s.topology_score.entry((t.topology_key, v)).or_insert(0) += sign * weight * c;
                seen = true;
            }
        }
        if !s.keys.contains(&t.topology_key) {
            s.keys.push(t.topology_key);
        }
    }
    // Existing pods' terms matched by the incoming pod.
    let ns_labels = cluster.ns_labels(pod.namespace);
    for g in cluster.terms.groups() {
        let weight = match g.kind {
            TermKind::RequiredAntiAffinity => continue,
            TermKind::RequiredAffinity => {
                if args.hard_pod_affinity_weight <= 0 {
                    continue;
                }
                args.hard_pod_affinity_weight
            }
            TermKind::PreferredAffinity(w) => w,
            TermKind::PreferredAntiAffinity(w) => -w,
        };
        if g.per_value.is_empty()
            || !g
                .term
                .matches(pod.namespace, &pod.labels, ns_labels, &cluster.interner)
        {
            continue;
        }
        for (&v, &c) in &g.per_value {
            *s.topology_score
                .entry((g.term.topology_key, v))
                .or_insert(0) += weight * c;
            seen = true;
        }
        if !s.keys.contains(&g.term.topology_key) {
            s.keys.push(g.term.topology_key);
        }
    }
    seen.then_some(s)
}

#[inline]
pub fn score(s: &ScoreState, node: &NodeEntry) -> i64 {
    s.keys
        .iter()
        .filter_map(|&k| node.labels.get(k).map(|v| (k, v)))
        .map(|kv| s.topology_score.get(&kv).copied().unwrap_or(0))
        .sum()
}

/// NormalizeScore: min-max scaled to 0..=100, truncated.
pub fn normalize(scores: &mut [i64]) {
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    for &s in scores.iter() {
        min = min.min(s);
        max = max.max(s);
    }
    let diff = max.saturating_sub(min);
    for s in scores.iter_mut() {
        *s = if diff > 0 {
            (MAX_NODE_SCORE as f64 * ((*s - min) as f64 / diff as f64)) as i64
        } else {
            0
        };
    }
}

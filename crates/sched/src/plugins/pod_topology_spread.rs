//! PodTopologySpread (podtopologyspread/filtering.go, scoring.go, common.go): hard constraints
//! (DoNotSchedule) as a filter with minDomains and node inclusion policies, soft constraints
//! (ScheduleAnyway) as a score, and the system default constraints for pods without any.

use crate::cluster::{Cluster, NodeEntry, NO_VALUE};
use crate::error::SchedError;
use crate::events::action_type::{ADD, DELETE, UPDATE_POD_LABEL};
use crate::events::{
    on, ClusterEvent,
    EventResource::{Node, Pod},
    NODE_ADD,
};
use crate::hash::FxHashMap;
use crate::intern::{Interner, Sym};
use crate::matcher_cache::MatcherKey;
use crate::plugins::{PluginId, MAX_NODE_SCORE};
use crate::pod::{TopologySpreadConstraint, WhenUnsatisfiable};
use crate::pod_info::{PodInfo, SpreadConstraint};
use crate::selector::Selector;
use crate::status::{Code, Failure, Reason};
use crate::taint::first_untolerated_do_not_schedule;

pub const NAME: &str = "PodTopologySpread";

/// `EventsToRegister` (podtopologyspread/plugin.go): matching pods appearing, relabelled or leaving
/// change the skew; nodes appearing, leaving or relabelled change the domains.
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[
    on(Pod, ADD | UPDATE_POD_LABEL | DELETE),
    on(Node, NODE_ADD | DELETE),
];

/// `PodTopologySpreadArgs.defaultingType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DefaultingType {
    /// The built-in `systemDefaultConstraints`.
    #[default]
    System,
    /// `defaultConstraints` from the args.
    List,
}

/// `PodTopologySpreadArgs`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PodTopologySpreadArgs {
    pub default_constraints: Vec<TopologySpreadConstraint>,
    pub defaulting_type: DefaultingType,
}

/// Default constraints in a form independent of any pod: selector filled per pod.
#[derive(Debug, Clone)]
pub struct CompiledArgs {
    defaults: Vec<SpreadConstraint>,
    hard_defaults: Vec<bool>,
    pub system_defaulted: bool,
}

impl CompiledArgs {
    pub fn compile(
        args: &PodTopologySpreadArgs,
        interner: &mut Interner,
    ) -> Result<Self, SchedError> {
        let list: Vec<TopologySpreadConstraint> = match args.defaulting_type {
            DefaultingType::System => system_default_constraints(),
            DefaultingType::List => args.default_constraints.clone(),
        };
        let mut defaults = Vec::new();
        let mut hard_defaults = Vec::new();
        for c in &list {
            if c.label_selector.is_some() {
                return Err(SchedError::InvalidConfig(
                    "defaultConstraints must not have a labelSelector".into(),
                ));
            }
            if c.max_skew <= 0 || c.topology_key.is_empty() {
                return Err(SchedError::InvalidConfig(format!(
                    "invalid default constraint {c:?}"
                )));
            }
            defaults.push(SpreadConstraint {
                max_skew: c.max_skew,
                topology_key: interner.intern(&c.topology_key),
                selector: None,
                min_domains: c.min_domains.unwrap_or(1),
                node_affinity_honor: c.node_affinity_policy
                    != Some(crate::pod::NodeInclusionPolicy::Ignore),
                node_taints_honor: c.node_taints_policy
                    == Some(crate::pod::NodeInclusionPolicy::Honor),
            });
            hard_defaults.push(c.when_unsatisfiable == WhenUnsatisfiable::DoNotSchedule);
        }
        Ok(CompiledArgs {
            defaults,
            hard_defaults,
            system_defaulted: args.defaulting_type == DefaultingType::System,
        })
    }

    /// No default constraints at all.
    pub fn empty() -> Self {
        CompiledArgs {
            defaults: Vec::new(),
            hard_defaults: Vec::new(),
            system_defaulted: false,
        }
    }

    /// `buildDefaultConstraints`: the defaults of one kind with the pod's default selector, or
    /// none when nothing selects the pod.
    fn defaults_for(&self, pod: &PodInfo, hard: bool) -> Vec<SpreadConstraint> {
        let Some(sel) = pod
            .default_spread_selector
            .as_ref()
            .filter(|s| !s.is_empty())
        else {
            return Vec::new();
        };
        self.defaults
            .iter()
            .zip(&self.hard_defaults)
            .filter(|(_, &h)| h == hard)
            .map(|(c, _)| SpreadConstraint {
                selector: Some(sel.clone()),
                ..c.clone()
            })
            .collect()
    }
}

/// `systemDefaultConstraints` (podtopologyspread/plugin.go): zone maxSkew 5, hostname maxSkew 3,
/// both ScheduleAnyway.
pub fn system_default_constraints() -> Vec<TopologySpreadConstraint> {
    vec![
        TopologySpreadConstraint {
            max_skew: 3,
            topology_key: crate::cluster::LABEL_HOSTNAME.into(),
            when_unsatisfiable: WhenUnsatisfiable::ScheduleAnyway,
            ..TopologySpreadConstraint::default()
        },
        TopologySpreadConstraint {
            max_skew: 5,
            topology_key: crate::cluster::LABEL_ZONE.into(),
            when_unsatisfiable: WhenUnsatisfiable::ScheduleAnyway,
            ..TopologySpreadConstraint::default()
        },
    ]
}

/// `matchNodeInclusionPolicies`.
#[inline]
fn node_included(
    c: &SpreadConstraint,
    pod: &PodInfo,
    node: &NodeEntry,
    interner: &Interner,
) -> bool {
    if c.node_affinity_honor
        && !pod
            .required_node_affinity
            .matches(&node.labels, &node.fields, interner)
    {
        return false;
    }
    if c.node_taints_honor
        && first_untolerated_do_not_schedule(&node.taints, &pod.tolerations).is_some()
    {
        return false;
    }
    true
}

fn matcher_for(cluster: &mut Cluster, pod: &PodInfo, c: &SpreadConstraint) -> Option<usize> {
    let selector: &Selector = c.selector.as_ref()?;
    Some(cluster.matcher(MatcherKey::Spread {
        namespace: pod.namespace,
        selector: selector.clone(),
    }))
}

#[inline]
fn count_on(cluster: &Cluster, m: Option<usize>, slot: u32) -> i64 {
    m.and_then(|m| cluster.matchers.counts(m).get(slot as usize).copied())
        .map_or(0, i64::from)
}

/// PreFilter state: matching pods per domain and the global minimum per constraint.
#[derive(Debug)]
pub struct FilterState {
    constraints: Vec<SpreadConstraint>,
    per_domain: Vec<FxHashMap<Sym, i64>>,
    min_match: Vec<i64>,
    self_match: Vec<bool>,
    num_domains: Vec<usize>,
    /// Single constraint whose eligible nodes are exactly the nodes with its key: counts are
    /// read from the cluster's incremental per-domain index for this matcher.
    indexed: Option<usize>,
}

/// True when a constraint's eligible nodes are just the nodes carrying its key, so the
/// cluster's per-domain counts are exact for it.
fn index_exact(c: &SpreadConstraint, pod: &PodInfo) -> bool {
    (!c.node_affinity_honor || pod.required_node_affinity.is_empty()) && !c.node_taints_honor
}

/// PreFilter; `None` is Skip (no hard constraints).
pub fn pre_filter(
    cluster: &mut Cluster,
    pod: &PodInfo,
    args: &CompiledArgs,
) -> Option<FilterState> {
    let constraints = if pod.has_spread_constraints {
        pod.hard_spread.clone()
    } else {
        args.defaults_for(pod, true)
    };
    if constraints.is_empty() {
        return None;
    }
    let matchers: Vec<Option<usize>> = constraints
        .iter()
        .map(|c| matcher_for(cluster, pod, c))
        .collect();
    for c in &constraints {
        cluster.ensure_topology_key(c.topology_key);
    }
    let self_match: Vec<bool> = constraints
        .iter()
        .map(|c| {
            c.selector
                .as_ref()
                .is_some_and(|s| s.matches(&pod.labels, &cluster.interner))
        })
        .collect();
    if let ([c], [Some(m)]) = (constraints.as_slice(), matchers.as_slice()) {
        if index_exact(c, pod) {
            let (m, key) = (*m, c.topology_key);
            cluster.ensure_domain_counts(m, key);
            let cl: &Cluster = cluster;
            let counts = cl.domain_counts(m, key);
            let domains = cl.domain_nodes(key);
            let min = domains
                .into_iter()
                .flat_map(|d| d.keys())
                .map(|v| counts.and_then(|c| c.get(v)).copied().unwrap_or(0))
                .min()
                .unwrap_or(i64::from(i32::MAX));
            let num_domains = domains.map_or(0, |d| d.len());
            return Some(FilterState {
                constraints,
                per_domain: Vec::new(),
                min_match: vec![min],
                self_match,
                num_domains: vec![num_domains],
                indexed: Some(m),
            });
        }
    }
    let mut per_domain: Vec<FxHashMap<Sym, i64>> = vec![FxHashMap::default(); constraints.len()];
    let cl: &Cluster = cluster;
    for slot in 0..cl.node_slots() as u32 {
        let Some(node) = cl.node(slot) else { continue };
        // nodeLabelsMatchSpreadConstraints: every topology key must be present.
        if constraints
            .iter()
            .any(|c| value_of(cl, c.topology_key, slot) == NO_VALUE)
        {
            continue;
        }
        for ((c, m), domains) in constraints.iter().zip(&matchers).zip(per_domain.iter_mut()) {
            if !node_included(c, pod, node, &cl.interner) {
                continue;
            }
            let v = value_of(cl, c.topology_key, slot);
            *domains.entry(v).or_insert(0) += count_on(cl, *m, slot);
        }
    }
    let min_match = per_domain
        .iter()
        .map(|d| d.values().copied().min().unwrap_or(i64::from(i32::MAX)))
        .collect();
    let num_domains = per_domain.iter().map(|d| d.len()).collect();
    Some(FilterState {
        num_domains,
        indexed: None,
        constraints,
        per_domain,
        min_match,
        self_match,
    })
}

#[inline]
fn value_of(cluster: &Cluster, key: Sym, slot: u32) -> Sym {
    cluster
        .topology_values(key)
        .get(slot as usize)
        .copied()
        .unwrap_or(NO_VALUE)
}

#[inline]
pub fn filter(s: &FilterState, node: &NodeEntry, cluster: &Cluster) -> Option<Failure> {
    for (i, c) in s.constraints.iter().enumerate() {
        let Some(v) = node.labels.get(c.topology_key) else {
            return Some(Failure::new(
                Code::UnschedulableAndUnresolvable,
                PluginId::PodTopologySpread,
                Reason::SpreadMissingLabel,
            ));
        };
        let mut min = s.min_match.get(i).copied().unwrap_or(0);
        if s.num_domains.get(i).copied().unwrap_or(0) < c.min_domains.max(0) as usize {
            min = 0;
        }
        let self_num = i64::from(s.self_match.get(i).copied().unwrap_or(false));
        let domains = match s.indexed {
            Some(m) => cluster.domain_counts(m, c.topology_key),
            None => s.per_domain.get(i),
        };
        let match_num = domains.and_then(|d| d.get(&v)).copied().unwrap_or(0);
        if match_num + self_num - min > i64::from(c.max_skew) {
            return Some(Failure::new(
                Code::Unschedulable,
                PluginId::PodTopologySpread,
                Reason::SpreadConstraintsNotMatch,
            ));
        }
    }
    None
}

/// PreScore state.
#[derive(Debug)]
pub struct ScoreState {
    constraints: Vec<SpreadConstraint>,
    matchers: Vec<Option<usize>>,
    per_domain: Vec<FxHashMap<Sym, i64>>,
    weights: Vec<f64>,
    /// Per feasible node: misses a required topology key.
    pub ignored: Vec<bool>,
}

/// PreScore over the feasible nodes; `None` is Skip (no soft constraints).
pub fn pre_score(
    cluster: &mut Cluster,
    pod: &PodInfo,
    args: &CompiledArgs,
    feasible: &[u32],
) -> Option<ScoreState> {
    if cluster.num_nodes() == 0 {
        return None;
    }
    let constraints = if pod.has_spread_constraints {
        pod.soft_spread.clone()
    } else {
        args.defaults_for(pod, false)
    };
    if constraints.is_empty() {
        return None;
    }
    let require_all = pod.has_spread_constraints || !args.system_defaulted;
    let matchers: Vec<Option<usize>> = constraints
        .iter()
        .map(|c| matcher_for(cluster, pod, c))
        .collect();
    for c in &constraints {
        cluster.ensure_topology_key(c.topology_key);
    }
    let cl: &Cluster = cluster;
    let hostname = cl.wk.hostname;
    let empty = cl.wk.empty;
    let has_all = |slot: u32| {
        constraints
            .iter()
            .all(|c| value_of(cl, c.topology_key, slot) != NO_VALUE)
    };
    let mut per_domain: Vec<FxHashMap<Sym, i64>> = vec![FxHashMap::default(); constraints.len()];
    let mut ignored = Vec::with_capacity(feasible.len());
    let mut num_ignored = 0usize;
    // A scored node without the key puts the "" domain in play, which the index does not track.
    let mut key_missing = vec![false; constraints.len()];
    for &slot in feasible {
        if require_all && !has_all(slot) {
            ignored.push(true);
            num_ignored += 1;
            continue;
        }
        ignored.push(false);
        for ((c, domains), missing) in constraints
            .iter()
            .zip(per_domain.iter_mut())
            .zip(key_missing.iter_mut())
        {
            if c.topology_key == hostname {
                continue;
            }
            let v = value_of(cl, c.topology_key, slot);
            if v == NO_VALUE {
                *missing = true;
            }
            domains
                .entry(if v == NO_VALUE { empty } else { v })
                .or_insert(0);
        }
    }
    // Constraints whose counts can come from the cluster's per-domain index.
    let indexed: Vec<bool> = constraints
        .iter()
        .zip(&key_missing)
        .map(|(c, &missing)| {
            c.topology_key != hostname
                && !missing
                && index_exact(c, pod)
                && (constraints.len() == 1 || !require_all)
        })
        .collect();
    for ((c, m), &ix) in constraints.iter().zip(&matchers).zip(&indexed) {
        if let (true, Some(m)) = (ix, m) {
            cluster.ensure_domain_counts(*m, c.topology_key);
        }
    }
    let cl: &Cluster = cluster;
    let has_all = |slot: u32| {
        constraints
            .iter()
            .all(|c| value_of(cl, c.topology_key, slot) != NO_VALUE)
    };
    for (((c, m), domains), &ix) in constraints
        .iter()
        .zip(&matchers)
        .zip(per_domain.iter_mut())
        .zip(&indexed)
    {
        if !ix {
            continue;
        }
        let counts = m.and_then(|m| cl.domain_counts(m, c.topology_key));
        for (v, count) in domains.iter_mut() {
            *count = counts.and_then(|d| d.get(v)).copied().unwrap_or(0);
        }
    }
    let weights = constraints
        .iter()
        .zip(&per_domain)
        .map(|(c, d)| {
            let size = if c.topology_key == hostname {
                feasible.len() - num_ignored
            } else {
                d.len()
            };
            ((size + 2) as f64).ln()
        })
        .collect();
    let scan = constraints
        .iter()
        .zip(&indexed)
        .any(|(c, &ix)| !ix && c.topology_key != hostname);
    for slot in 0..cl.node_slots() as u32 {
        if !scan {
            break;
        }
        let Some(node) = cl.node(slot) else { continue };
        if require_all && !has_all(slot) {
            continue;
        }
        for (((c, m), domains), &ix) in constraints
            .iter()
            .zip(&matchers)
            .zip(per_domain.iter_mut())
            .zip(&indexed)
        {
            if ix || c.topology_key == hostname || !node_included(c, pod, node, &cl.interner) {
                continue;
            }
            let v = value_of(cl, c.topology_key, slot);
            let v = if v == NO_VALUE { empty } else { v };
            if let Some(count) = domains.get_mut(&v) {
                *count += count_on(cl, *m, slot);
            }
        }
    }
    Some(ScoreState {
        constraints,
        matchers,
        per_domain,
        weights,
        ignored,
    })
}

/// Score of the `i`-th feasible node.
#[inline]
pub fn score(s: &ScoreState, cluster: &Cluster, i: usize, slot: u32, node: &NodeEntry) -> i64 {
    if s.ignored.get(i).copied().unwrap_or(false) {
        return 0;
    }
    let hostname = cluster.wk.hostname;
    let mut score = 0f64;
    for (((c, m), domains), w) in s
        .constraints
        .iter()
        .zip(&s.matchers)
        .zip(&s.per_domain)
        .zip(&s.weights)
    {
        let Some(v) = node.labels.get(c.topology_key) else {
            continue;
        };
        let cnt = if c.topology_key == hostname {
            count_on(cluster, *m, slot)
        } else {
            domains.get(&v).copied().unwrap_or(0)
        };
        score += cnt as f64 * w + f64::from(c.max_skew - 1);
    }
    score.round() as i64
}

/// NormalizeScore: fewer matching pods is better; ignored nodes get 0.
pub fn normalize(s: &ScoreState, scores: &mut [i64]) {
    let (mut min, mut max) = (i64::MAX, 0i64);
    for (i, &sc) in scores.iter().enumerate() {
        if s.ignored.get(i).copied().unwrap_or(false) {
            continue;
        }
        min = min.min(sc);
        max = max.max(sc);
    }
    for (i, sc) in scores.iter_mut().enumerate() {
        if s.ignored.get(i).copied().unwrap_or(false) {
            *sc = 0;
        } else if max == 0 {
            *sc = MAX_NODE_SCORE;
        } else {
            *sc = MAX_NODE_SCORE * (max + min - *sc) / max;
        }
    }
}

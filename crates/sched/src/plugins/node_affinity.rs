//! NodeAffinity (nodeaffinity/node_affinity.go): `spec.nodeSelector` and required node
//! affinity as a filter, preferred node affinity as a score, plus the profile's `addedAffinity`.

use crate::cluster::NodeEntry;
use crate::error::SchedError;
use crate::events::{on, ClusterEvent, EventResource::Node, NODE_ADD};
use crate::intern::{Interner, Sym};
use crate::node_selector::{
    CompiledTerm, NodeSelectorTerm, PreferredSchedulingTerm, RequiredNodeAffinity,
};
use crate::plugins::default_normalize::default_normalize_score;
use crate::plugins::{PluginId, MAX_NODE_SCORE};
use crate::pod_info::PodInfo;
use crate::status::{Code, Failure, Reason};

pub const NAME: &str = "NodeAffinity";

/// `EventsToRegister` (nodeaffinity/node_affinity.go): a new node or changed node labels.
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[on(Node, NODE_ADD)];

/// `NodeAffinityArgs.addedAffinity`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeAffinityArgs {
    pub added_required: Option<Vec<NodeSelectorTerm>>,
    pub added_preferred: Vec<PreferredSchedulingTerm>,
}

/// The args compiled against the cluster's interner.
#[derive(Debug, Clone, Default)]
pub struct CompiledArgs {
    pub added_required: Option<RequiredNodeAffinity>,
    pub added_preferred: Vec<(i64, CompiledTerm)>,
}

impl CompiledArgs {
    pub fn compile(args: &NodeAffinityArgs, interner: &mut Interner) -> Result<Self, SchedError> {
        let added_required = match &args.added_required {
            None => None,
            Some(terms) => Some(RequiredNodeAffinity::compile(&[], Some(terms), interner)?),
        };
        let mut added_preferred = Vec::new();
        for t in &args.added_preferred {
            if t.weight == 0 {
                continue;
            }
            added_preferred.push((
                i64::from(t.weight),
                CompiledTerm::compile(&t.preference, interner)?,
            ));
        }
        Ok(CompiledArgs {
            added_required,
            added_preferred,
        })
    }
}

/// Outcome of PreFilter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreFilter {
    /// Nothing to check for this pod.
    Skip,
    /// Filter every node; `Some(names)` restricts candidates to those node names
    /// (required terms all pin `metadata.name`).
    Run(Option<Vec<Sym>>),
    /// Every term pins conflicting node names: no node can match.
    Conflict,
}

pub fn pre_filter(pod: &PodInfo, args: &CompiledArgs) -> PreFilter {
    let terms = pod.required_node_affinity.terms();
    if pod.required_node_affinity.is_empty() && args.added_required.is_none() {
        return PreFilter::Skip;
    }
    let Some(terms) = terms.filter(|t| !t.is_empty()) else {
        return PreFilter::Run(None);
    };
    let mut names: Vec<Sym> = Vec::new();
    for t in terms {
        match &t.name_in {
            // A term without a name requirement leaves every node eligible (terms are ORed).
            None => return PreFilter::Run(None),
            Some(n) => names.extend_from_slice(n),
        }
    }
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        PreFilter::Conflict
    } else {
        PreFilter::Run(Some(names))
    }
}

#[inline]
pub fn filter(
    pod: &PodInfo,
    args: &CompiledArgs,
    node: &NodeEntry,
    interner: &Interner,
) -> Option<Failure> {
    if let Some(added) = &args.added_required {
        if !added.matches(&node.labels, &node.fields, interner) {
            return Some(Failure::new(
                Code::UnschedulableAndUnresolvable,
                PluginId::NodeAffinity,
                Reason::NodeAffinityEnforced,
            ));
        }
    }
    if !pod
        .required_node_affinity
        .matches(&node.labels, &node.fields, interner)
    {
        return Some(Failure::new(
            Code::UnschedulableAndUnresolvable,
            PluginId::NodeAffinity,
            Reason::NodeAffinityMismatch,
        ));
    }
    None
}

/// PreScore: skip when neither the pod nor the profile prefers anything.
pub fn skip_score(pod: &PodInfo, args: &CompiledArgs) -> bool {
    pod.preferred_node_affinity.is_empty() && args.added_preferred.is_empty()
}

/// Sum of the weights of matching preferred terms.
#[inline]
pub fn score(pod: &PodInfo, args: &CompiledArgs, node: &NodeEntry, interner: &Interner) -> i64 {
    args.added_preferred
        .iter()
        .chain(&pod.preferred_node_affinity)
        .filter(|(_, t)| t.matches(&node.labels, &node.fields, interner))
        .map(|(w, _)| *w)
        .sum()
}

pub fn normalize(scores: &mut [i64]) {
    default_normalize_score(MAX_NODE_SCORE, false, scores);
}

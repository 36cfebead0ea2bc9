//! Filter results as kube-scheduler's `framework.Status`: a code plus reasons. Reasons are small
//! `Copy` values so a failing node costs no allocation; they become Kubernetes' exact strings
//! only when rendered.

use crate::intern::{Interner, Sym};
use crate::plugins::PluginId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    Success,
    /// Preemption might help.
    Unschedulable,
    /// Preemption cannot help on this node.
    UnschedulableAndUnresolvable,
    /// The plugin has nothing to do for this pod.
    Skip,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Success => "Success",
            Code::Unschedulable => "Unschedulable",
            Code::UnschedulableAndUnresolvable => "UnschedulableAndUnresolvable",
            Code::Skip => "Skip",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    NodeUnschedulable,
    NodeNameMismatch,
    UntoleratedTaint {
        key: Sym,
        value: Sym,
    },
    NodeAffinityMismatch,
    NodeAffinityEnforced,
    NodeAffinityConflict,
    PortsConflict,
    TooManyPods,
    Insufficient(Sym),
    AffinityRulesNotMatch,
    AntiAffinityRulesNotMatch,
    ExistingAntiAffinityRulesNotMatch,
    SpreadConstraintsNotMatch,
    SpreadMissingLabel,
    /// Nodes left out by a PreFilter result (`node(s) didn't satisfy plugin(s) [...]`).
    PluginsNotSatisfied(PluginId),
}

/// nodeunschedulable/node_unschedulable.go `ErrReasonUnschedulable`.
pub const ERR_NODE_UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// nodename/node_name.go `ErrReason`.
pub const ERR_NODE_NAME: &str = "node(s) didn't match the requested node name";
/// nodeaffinity/node_affinity.go `ErrReasonPod`.
pub const ERR_NODE_AFFINITY: &str = "node(s) didn't match Pod's node affinity/selector";
/// nodeaffinity/node_affinity.go `errReasonEnforced`.
pub const ERR_NODE_AFFINITY_ENFORCED: &str =
    "node(s) didn't match scheduler-enforced node affinity";
/// nodeaffinity/node_affinity.go `errReasonConflict`.
pub const ERR_NODE_AFFINITY_CONFLICT: &str = "pod affinity terms conflict";
/// nodeports/node_ports.go `ErrReason`.
pub const ERR_NODE_PORTS: &str = "node(s) didn't have free ports for the requested pod ports";
/// interpodaffinity/filtering.go `ErrReasonAffinityRulesNotMatch`.
pub const ERR_AFFINITY: &str = "node(s) didn't match pod affinity rules";
/// interpodaffinity/filtering.go `ErrReasonAntiAffinityRulesNotMatch`.
pub const ERR_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";
/// interpodaffinity/filtering.go `ErrReasonExistingAntiAffinityRulesNotMatch`.
pub const ERR_EXISTING_ANTI_AFFINITY: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";
/// podtopologyspread/plugin.go `ErrReasonConstraintsNotMatch`.
pub const ERR_SPREAD: &str = "node(s) didn't match pod topology spread constraints";
/// podtopologyspread/plugin.go `ErrReasonNodeLabelNotMatch`.
pub const ERR_SPREAD_LABEL: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";

impl Reason {
    /// Kubernetes' reason string.
    pub fn render(&self, interner: &Interner) -> String {
        match self {
            Reason::NodeUnschedulable => ERR_NODE_UNSCHEDULABLE.into(),
            Reason::NodeNameMismatch => ERR_NODE_NAME.into(),
            // tainttoleration/taint_toleration.go Filter.
            Reason::UntoleratedTaint { key, value } => format!(
                "node(s) had untolerated taint {{{}: {}}}",
                interner.resolve(*key),
                interner.resolve(*value)
            ),
            Reason::NodeAffinityMismatch => ERR_NODE_AFFINITY.into(),
            Reason::NodeAffinityEnforced => ERR_NODE_AFFINITY_ENFORCED.into(),
            Reason::NodeAffinityConflict => ERR_NODE_AFFINITY_CONFLICT.into(),
            Reason::PortsConflict => ERR_NODE_PORTS.into(),
            Reason::TooManyPods => "Too many pods".into(),
            Reason::Insufficient(r) => format!("Insufficient {}", interner.resolve(*r)),
            Reason::AffinityRulesNotMatch => ERR_AFFINITY.into(),
            Reason::AntiAffinityRulesNotMatch => ERR_ANTI_AFFINITY.into(),
            Reason::ExistingAntiAffinityRulesNotMatch => ERR_EXISTING_ANTI_AFFINITY.into(),
            Reason::SpreadConstraintsNotMatch => ERR_SPREAD.into(),
            Reason::SpreadMissingLabel => ERR_SPREAD_LABEL.into(),
            Reason::PluginsNotSatisfied(p) => {
                format!("node(s) didn't satisfy plugin(s) [{}]", p.name())
            }
        }
    }
}

/// Most reasons one status carries (NodeResourcesFit reports every short resource).
pub const MAX_REASONS: usize = 8;

/// A failed filter: which plugin, which code, which reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    pub code: Code,
    pub plugin: PluginId,
    len: u8,
    reasons: [Reason; MAX_REASONS],
}

impl Failure {
    pub fn new(code: Code, plugin: PluginId, reason: Reason) -> Failure {
        let mut f = Failure {
            code,
            plugin,
            len: 0,
            reasons: [reason; MAX_REASONS],
        };
        f.push(reason);
        f
    }

    /// Adds a reason; beyond `MAX_REASONS` extra reasons are dropped.
    pub fn push(&mut self, reason: Reason) {
        if let Some(slot) = self.reasons.get_mut(self.len as usize) {
            *slot = reason;
            self.len += 1;
        }
    }

    pub fn reasons(&self) -> &[Reason] {
        self.reasons.get(..self.len as usize).unwrap_or(&[])
    }
}

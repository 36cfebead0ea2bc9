//! Why a pod fit no node, as `framework.Diagnosis` (pkg/scheduler/framework/types.go): the
//! reasons counted over nodes, the plugins that rejected the pod (`UnschedulablePlugins`, which
//! the scheduling queue reads to decide which cluster events may requeue it), and the
//! FailedScheduling message `FitError.Error()` writes:
//! `0/N nodes are available: <PreFilterMsg>. <count reason, ...>. <PostFilterMsg>` with the
//! "count reason" strings sorted as strings.

use crate::hash::FxHashMap;
use crate::intern::Interner;
use crate::plugins::PluginIdSet;
use crate::status::{Failure, Reason};

/// types.go `NoNodeAvailableMsg` (a Go format string; `%v` is the node count).
pub const NO_NODE_AVAILABLE_MSG: &str = "0/%v nodes are available";

/// Why a pod fit no node.
#[derive(Debug, Clone, Default)]
pub struct Diagnosis {
    /// Set when a PreFilter plugin rejected the pod for every node.
    pub pre_filter: Option<Failure>,
    /// Reasons counted over nodes (each reason of each failed node once).
    pub histogram: FxHashMap<Reason, usize>,
    /// Message of the PostFilter (preemption) step, if any.
    pub post_filter_msg: Option<String>,
    /// `UnschedulablePlugins`: every plugin whose status rejected the pod, and the PreFilter
    /// plugins whose node-name result left nodes out (`RunPreFilterPlugins`' `pluginsWithNodes`).
    /// No plugin of this engine answers `Pending`, so there is no `PendingPlugins`.
    pub unschedulable_plugins: PluginIdSet,
}

impl Diagnosis {
    /// A PreFilter rejection: the same status for every node (`SetAbsentNodesStatus`, then
    /// `AddPluginStatus` in schedule_one.go findNodesThatFitPod).
    pub fn rejected_at_pre_filter(f: Failure) -> Diagnosis {
        let mut d = Diagnosis {
            pre_filter: Some(f),
            ..Diagnosis::default()
        };
        d.unschedulable_plugins.insert(f.plugin);
        d
    }

    /// One node's failed filter: its reasons counted, its plugin recorded (`AddPluginStatus`).
    pub fn add(&mut self, f: &Failure) {
        for r in f.reasons() {
            *self.histogram.entry(*r).or_insert(0) += 1;
        }
        self.unschedulable_plugins.insert(f.plugin);
    }

    pub fn add_many(&mut self, r: Reason, n: usize) {
        if n > 0 {
            *self.histogram.entry(r).or_insert(0) += n;
        }
    }

    /// `FitError.Error()`.
    pub fn message(&self, num_all_nodes: usize, interner: &Interner) -> String {
        let mut msg = format!("0/{num_all_nodes} nodes are available:");
        match &self.pre_filter {
            Some(f) => {
                let reasons: Vec<String> = f.reasons().iter().map(|r| r.render(interner)).collect();
                msg.push_str(&format!(" {}.", reasons.join(", ")));
            }
            None => {
                let mut parts: Vec<String> = self
                    .histogram
                    .iter()
                    .map(|(r, n)| format!("{n} {}", r.render(interner)))
                    .collect();
                parts.sort();
                if !parts.is_empty() {
                    msg.push_str(&format!(" {}.", parts.join(", ")));
                }
            }
        }
        if let Some(p) = &self.post_filter_msg {
            msg.push_str(&format!(" {p}"));
        }
        msg
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::PluginId;
    use crate::status::Code;

    #[test]
    fn reasons_are_counted_and_sorted_as_strings() {
        let mut i = Interner::default();
        let cpu = i.intern("cpu");
        let (k, v) = (i.intern("dedicated"), i.intern("gpu"));
        let mut d = Diagnosis::default();
        for _ in 0..3 {
            d.add(&Failure::new(
                Code::Unschedulable,
                PluginId::NodeResourcesFit,
                Reason::Insufficient(cpu),
            ));
        }
        for _ in 0..2 {
            d.add(&Failure::new(
                Code::UnschedulableAndUnresolvable,
                PluginId::TaintToleration,
                Reason::UntoleratedTaint { key: k, value: v },
            ));
        }
        d.add_many(Reason::NodeUnschedulable, 10);
        assert_eq!(
            d.message(5015, &i),
            "0/5015 nodes are available: 10 node(s) were unschedulable, \
             2 node(s) had untolerated taint {dedicated: gpu}, 3 Insufficient cpu."
        );
        let empty = Diagnosis::default();
        assert_eq!(empty.message(0, &i), "0/0 nodes are available:");
        // add_many counts nodes a PreFilter result left out: their status names no plugin.
        assert_eq!(
            d.unschedulable_plugins.names(),
            ["NodeResourcesFit", "TaintToleration"]
        );
    }

    #[test]
    fn pre_filter_rejection_replaces_the_histogram() {
        let i = Interner::default();
        let mut d = Diagnosis::rejected_at_pre_filter(Failure::new(
            Code::UnschedulableAndUnresolvable,
            PluginId::NodeAffinity,
            Reason::NodeAffinityConflict,
        ));
        d.post_filter_msg = Some("preemption: not eligible due to preemptionPolicy=Never.".into());
        assert_eq!(d.unschedulable_plugins.names(), ["NodeAffinity"]);
        assert_eq!(
            d.message(3, &i),
            "0/3 nodes are available: pod affinity terms conflict. preemption: not eligible due to preemptionPolicy=Never."
        );
    }
}

//! TaintToleration (tainttoleration/taint_toleration.go). Filter: reject on the first
//! untolerated NoSchedule/NoExecute taint. Score: count untolerated PreferNoSchedule taints,
//! normalized reversed (fewer is better).

use crate::cluster::NodeEntry;
use crate::events::{on, ClusterEvent, EventResource::Node, NODE_ADD};
use crate::plugins::default_normalize::default_normalize_score;
use crate::plugins::{PluginId, MAX_NODE_SCORE};
use crate::pod_info::PodInfo;
use crate::status::{Code, Failure, Reason};
use crate::taint::{
    first_untolerated_do_not_schedule, tolerations_tolerate, TaintEffect, TolerationId,
};

pub const NAME: &str = "TaintToleration";

/// `EventsToRegister` (tainttoleration/taint_toleration.go): a new node or changed taints. A pod
/// gaining a toleration is registered only with hints on; off, the pod's own update retries it
/// (Update → isPodUpdated).
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[on(Node, NODE_ADD)];

#[inline]
pub fn filter(pod: &PodInfo, node: &NodeEntry) -> Option<Failure> {
    let taint = first_untolerated_do_not_schedule(&node.taints, &pod.tolerations)?;
    Some(Failure::new(
        Code::UnschedulableAndUnresolvable,
        PluginId::TaintToleration,
        Reason::UntoleratedTaint {
            key: taint.key,
            value: taint.value,
        },
    ))
}

/// PreScore `getAllTolerationPreferNoSchedule`: tolerations with an empty or
/// PreferNoSchedule effect.
pub fn pre_score(pod: &PodInfo) -> Vec<TolerationId> {
    pod.tolerations
        .iter()
        .filter(|t| t.effect.is_none_or(|e| e == TaintEffect::PreferNoSchedule))
        .copied()
        .collect()
}

/// `countIntolerableTaintsPreferNoSchedule`.
#[inline]
pub fn score(tolerations: &[TolerationId], node: &NodeEntry) -> i64 {
    node.taints
        .iter()
        .filter(|t| {
            t.effect == TaintEffect::PreferNoSchedule && !tolerations_tolerate(tolerations, t)
        })
        .count() as i64
}

pub fn normalize(scores: &mut [i64]) {
    default_normalize_score(MAX_NODE_SCORE, true, scores);
}

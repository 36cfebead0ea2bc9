//! NodeUnschedulable (nodeunschedulable/node_unschedulable.go): cordoned nodes reject pods that
//! do not tolerate the `node.kubernetes.io/unschedulable:NoSchedule` taint.

use crate::cluster::{NodeEntry, WellKnown};
use crate::events::{on, ClusterEvent, EventResource::Node, NODE_ADD};
use crate::plugins::PluginId;
use crate::pod_info::PodInfo;
use crate::status::{Code, Failure, Reason};
use crate::taint::{tolerations_tolerate, TaintEffect, TaintId};

pub const NAME: &str = "NodeUnschedulable";

/// `EventsToRegister` (nodeunschedulable/node_unschedulable.go): a new node, or spec.unschedulable
/// flipping (reported as UpdateNodeTaint).
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[on(Node, NODE_ADD)];

#[inline]
pub fn filter(pod: &PodInfo, node: &NodeEntry, wk: &WellKnown) -> Option<Failure> {
    if !node.unschedulable {
        return None;
    }
    let taint = TaintId {
        key: wk.unschedulable_taint,
        value: wk.empty,
        effect: TaintEffect::NoSchedule,
    };
    if tolerations_tolerate(&pod.tolerations, &taint) {
        return None;
    }
    Some(Failure::new(
        Code::UnschedulableAndUnresolvable,
        PluginId::NodeUnschedulable,
        Reason::NodeUnschedulable,
    ))
}

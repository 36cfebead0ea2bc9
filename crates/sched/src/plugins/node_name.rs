//! NodeName (nodename/node_name.go): a pod with `spec.nodeName` fits only that node.

use crate::cluster::NodeEntry;
use crate::events::{on, ClusterEvent, EventResource::Node, NODE_ADD};
use crate::plugins::PluginId;
use crate::pod_info::PodInfo;
use crate::status::{Code, Failure, Reason};

pub const NAME: &str = "NodeName";

/// `EventsToRegister` (nodename/node_name.go): only a node with that name appearing helps.
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[on(Node, NODE_ADD)];

#[inline]
pub fn filter(pod: &PodInfo, node: &NodeEntry) -> Option<Failure> {
    match pod.node_name {
        Some(n) if n != node.name_sym => Some(Failure::new(
            Code::UnschedulableAndUnresolvable,
            PluginId::NodeName,
            Reason::NodeNameMismatch,
        )),
        _ => None,
    }
}

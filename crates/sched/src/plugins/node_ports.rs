//! NodePorts (nodeports/node_ports.go, `HostPortInfo.CheckConflict`): a wanted host port
//! conflicts with a used one on the same protocol and port when either IP is 0.0.0.0 or they
//! are equal.

use crate::cluster::NodeEntry;
use crate::events::action_type::DELETE;
use crate::events::{
    on, ClusterEvent,
    EventResource::{Node, Pod},
    NODE_ADD,
};
use crate::intern::Sym;
use crate::plugins::PluginId;
use crate::pod_info::HostPort;
use crate::status::{Code, Failure, Reason};

pub const NAME: &str = "NodePorts";

/// `EventsToRegister` (nodeports/node_ports.go): an assigned pod going away frees its host ports;
/// or a new node.
pub const EVENTS_TO_REGISTER: &[ClusterEvent] = &[on(Pod, DELETE), on(Node, NODE_ADD)];

#[inline]
pub fn filter(wanted: &[HostPort], node: &NodeEntry, any_ip: Sym) -> Option<Failure> {
    let conflict = wanted.iter().any(|w| {
        node.ports.iter().any(|u| {
            u.protocol == w.protocol
                && u.port == w.port
                && (w.ip == any_ip || u.ip == any_ip || u.ip == w.ip)
        })
    });
    conflict.then(|| {
        Failure::new(
            Code::Unschedulable,
            PluginId::NodePorts,
            Reason::PortsConflict,
        )
    })
}

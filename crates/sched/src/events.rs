//! Cluster events, as a plugin registers them: the events that may make schedulable a pod the
//! plugin rejected (`framework.ClusterEvent`, `ActionType` and `EventResource` of
//! pkg/scheduler/framework/types.go). Each plugin declares its `EVENTS_TO_REGISTER` beside its
//! code, as kube-scheduler's plugins implement `EnqueueExtensions.EventsToRegister`; the engine
//! hands the table of its profile's plugins to the scheduling queue (`Profile::events_to_register`).
//!
//! The tables are those of pkg/scheduler/framework/plugins/* (read at k/k HEAD, 2026), as
//! registered with SchedulerQueueingHints off (every hint then answers Queue, so registration
//! alone decides). Since k/k issue #109437 every plugin that registers Node/Add also registers
//! UpdateNodeTaint|UpdateNodeLabel ([`NODE_ADD`]), because a preCheck may have dropped the
//! Node/Add of a node that was not ready yet.

/// `framework.ActionType` bits (pkg/scheduler/framework/types.go), as `1 << iota`.
pub mod action_type {
    pub const ADD: u32 = 1 << 0;
    pub const DELETE: u32 = 1 << 1;
    pub const UPDATE_NODE_ALLOCATABLE: u32 = 1 << 2;
    pub const UPDATE_NODE_LABEL: u32 = 1 << 3;
    pub const UPDATE_NODE_TAINT: u32 = 1 << 4;
    pub const UPDATE_NODE_CONDITION: u32 = 1 << 5;
    pub const UPDATE_NODE_ANNOTATION: u32 = 1 << 6;
    pub const UPDATE_POD_LABEL: u32 = 1 << 7;
    pub const UPDATE_POD_SCALE_DOWN: u32 = 1 << 8;
    pub const UPDATE_POD_TOLERATIONS: u32 = 1 << 9;
    pub const UPDATE_POD_SCHEDULING_GATES_ELIMINATED: u32 = 1 << 10;
    pub const UPDATE_POD_GENERATED_RESOURCE_CLAIM: u32 = 1 << 11;
    /// `All = 1<<iota - 1`: every bit.
    pub const ALL: u32 = (1 << 12) - 1;
    /// Every UpdateXYZ bit.
    pub const UPDATE: u32 = ALL & !(ADD | DELETE);
}

use action_type::{ADD, UPDATE_NODE_LABEL, UPDATE_NODE_TAINT};

/// Node/Add plus the label and taint updates added for #109437.
pub const NODE_ADD: u32 = ADD | UPDATE_NODE_TAINT | UPDATE_NODE_LABEL;

/// `framework.EventResource`: the kinds events are about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventResource {
    Pod,
    Node,
    PersistentVolume,
    PersistentVolumeClaim,
    CSINode,
    CSIDriver,
    CSIStorageCapacity,
    StorageClass,
    VolumeAttachment,
    ResourceClaim,
    ResourceSlice,
    DeviceClass,
    /// `WildCard` (`*`): every resource.
    WildCard,
}

impl EventResource {
    /// The name kube-scheduler gives the resource (`*` for the wildcard).
    pub fn as_str(self) -> &'static str {
        match self {
            EventResource::Pod => "Pod",
            EventResource::Node => "Node",
            EventResource::PersistentVolume => "PersistentVolume",
            EventResource::PersistentVolumeClaim => "PersistentVolumeClaim",
            EventResource::CSINode => "CSINode",
            EventResource::CSIDriver => "CSIDriver",
            EventResource::CSIStorageCapacity => "CSIStorageCapacity",
            EventResource::StorageClass => "StorageClass",
            EventResource::VolumeAttachment => "VolumeAttachment",
            EventResource::ResourceClaim => "ResourceClaim",
            EventResource::ResourceSlice => "ResourceSlice",
            EventResource::DeviceClass => "DeviceClass",
            EventResource::WildCard => "*",
        }
    }
}

/// `framework.ClusterEvent`: a resource and what happened to it ([`action_type`] bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClusterEvent {
    pub resource: EventResource,
    pub action_type: u32,
}

/// A registered event: `on(EventResource::Node, NODE_ADD)`.
pub const fn on(resource: EventResource, action_type: u32) -> ClusterEvent {
    ClusterEvent {
        resource,
        action_type,
    }
}

#[cfg(test)]
mod tests {
    use super::action_type::*;
    use super::*;

    #[test]
    fn action_types_are_the_bits_of_types_go() {
        assert_eq!(
            [
                ADD,
                DELETE,
                UPDATE_NODE_ALLOCATABLE,
                UPDATE_NODE_LABEL,
                UPDATE_NODE_TAINT,
                UPDATE_NODE_CONDITION,
                UPDATE_NODE_ANNOTATION,
                UPDATE_POD_LABEL,
                UPDATE_POD_SCALE_DOWN,
                UPDATE_POD_TOLERATIONS,
                UPDATE_POD_SCHEDULING_GATES_ELIMINATED,
                UPDATE_POD_GENERATED_RESOURCE_CLAIM,
            ],
            [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
        );
        assert_eq!(ALL, 4095);
        assert_eq!(UPDATE & (ADD | DELETE), 0);
        assert_eq!(UPDATE | ADD | DELETE, ALL);
        assert_eq!(NODE_ADD, 25);
        assert_eq!(EventResource::WildCard.as_str(), "*");
    }
}

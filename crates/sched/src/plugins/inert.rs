//! Default-profile plugins that have nothing to do without volumes, DRA or gates: accepted in
//! profiles and ignored (`pkg/scheduler/apis/config/v1/default_plugins.go`). They never reject a
//! pod here, but the events they register still count for the scheduling queue (an event no
//! enabled plugin registered moves nobody), so their `EventsToRegister` is kept as upstream has it.

use crate::events::action_type::{ADD, DELETE, UPDATE, UPDATE_NODE_ALLOCATABLE};
use crate::events::EventResource::{
    CSIDriver, CSINode, CSIStorageCapacity, DeviceClass, Node, PersistentVolume,
    PersistentVolumeClaim, Pod, ResourceClaim, ResourceSlice, StorageClass,
};
use crate::events::{action_type, on, ClusterEvent, NODE_ADD};

/// The plugins accepted in a profile without an implementation here.
pub const INERT_PLUGINS: &[&str] = &[
    "SchedulingGates",
    "VolumeRestrictions",
    "EBSLimits",
    "GCEPDLimits",
    "NodeVolumeLimits",
    "AzureDiskLimits",
    "VolumeBinding",
    "VolumeZone",
    "DynamicResources",
    "DefaultBinder",
];

/// `EventsToRegister` (schedulinggates/scheduling_gates.go): registers only with queueing hints
/// on; off, the pod update removing the gates retries the pod (Update → isPodUpdated).
/// (PreEnqueue gating itself is not modelled.)
pub const SCHEDULING_GATES: &[ClusterEvent] = &[];

/// `EventsToRegister` (volumerestrictions/volume_restrictions.go): a conflicting pod deleted; a
/// claim appearing; a new node.
pub const VOLUME_RESTRICTIONS: &[ClusterEvent] = &[
    on(Pod, DELETE),
    on(PersistentVolumeClaim, ADD),
    on(Node, NODE_ADD),
];

/// `EventsToRegister` (nodevolumelimits/csi.go, CSILimits): a new CSINode, a pod releasing
/// volumes, a claim appearing.
pub const NODE_VOLUME_LIMITS: &[ClusterEvent] = &[
    on(CSINode, ADD),
    on(Pod, DELETE),
    on(PersistentVolumeClaim, ADD),
];

/// `EventsToRegister` (volumebinding/volume_binding.go): any change to the storage objects
/// binding depends on, or to nodes' topology.
pub const VOLUME_BINDING: &[ClusterEvent] = &[
    on(StorageClass, ADD | UPDATE),
    on(PersistentVolumeClaim, ADD | UPDATE),
    on(PersistentVolume, ADD | UPDATE),
    on(Node, NODE_ADD),
    on(CSINode, ADD | UPDATE),
    on(CSIDriver, UPDATE),
    on(CSIStorageCapacity, ADD | UPDATE),
];

/// `EventsToRegister` (volumezone/volume_zone.go): volumes or classes appearing or changing zone
/// labels; nodes with new labels.
pub const VOLUME_ZONE: &[ClusterEvent] = &[
    on(StorageClass, ADD),
    on(PersistentVolumeClaim, ADD | UPDATE),
    on(PersistentVolume, ADD | UPDATE),
    on(Node, NODE_ADD),
];

/// `EventsToRegister` (dynamicresources/dynamicresources.go; only with the DRA gate; not checked
/// against the source line by line): claims, slices and classes changing; nodes appearing.
pub const DYNAMIC_RESOURCES: &[ClusterEvent] = &[
    on(Node, NODE_ADD | UPDATE_NODE_ALLOCATABLE),
    on(ResourceClaim, ADD | UPDATE),
    on(Pod, action_type::UPDATE_POD_GENERATED_RESOURCE_CLAIM),
    on(DeviceClass, ADD | UPDATE),
    on(ResourceSlice, ADD | UPDATE),
];

/// The events an inert plugin registers; `None` for one that registers none of its own
/// (DefaultBinder binds; the cloud volume limits are not in the table).
pub fn events_to_register(name: &str) -> Option<&'static [ClusterEvent]> {
    Some(match name {
        "SchedulingGates" => SCHEDULING_GATES,
        "VolumeRestrictions" => VOLUME_RESTRICTIONS,
        "NodeVolumeLimits" => NODE_VOLUME_LIMITS,
        "VolumeBinding" => VOLUME_BINDING,
        "VolumeZone" => VOLUME_ZONE,
        "DynamicResources" => DYNAMIC_RESOURCES,
        _ => return None,
    })
}

//! One module per scheduler plugin, named as in `pkg/scheduler/framework/plugins/`.

pub mod default_normalize;
pub mod default_preemption;
pub mod image_locality;
pub mod inter_pod_affinity;
pub mod node_affinity;
pub mod node_name;
pub mod node_ports;
pub mod node_resources_balanced_allocation;
pub mod node_resources_fit;
pub mod node_unschedulable;
pub mod pod_topology_spread;
pub mod priority_sort;
pub mod taint_toleration;

/// `framework.MaxNodeScore` (pkg/scheduler/framework/interface.go).
pub const MAX_NODE_SCORE: i64 = 100;

/// The plugins this engine implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PluginId {
    PrioritySort,
    NodeUnschedulable,
    NodeName,
    TaintToleration,
    NodeAffinity,
    NodePorts,
    NodeResourcesFit,
    PodTopologySpread,
    InterPodAffinity,
    DefaultPreemption,
    NodeResourcesBalancedAllocation,
    ImageLocality,
}

/// Default-profile plugins that have nothing to do without volumes, DRA or gates; accepted in
/// profiles and ignored (`pkg/scheduler/apis/config/v1/default_plugins.go`).
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

impl PluginId {
    pub const ALL: [PluginId; 12] = [
        PluginId::PrioritySort,
        PluginId::NodeUnschedulable,
        PluginId::NodeName,
        PluginId::TaintToleration,
        PluginId::NodeAffinity,
        PluginId::NodePorts,
        PluginId::NodeResourcesFit,
        PluginId::PodTopologySpread,
        PluginId::InterPodAffinity,
        PluginId::DefaultPreemption,
        PluginId::NodeResourcesBalancedAllocation,
        PluginId::ImageLocality,
    ];

    /// The name used in `KubeSchedulerConfiguration` (pkg/scheduler/framework/plugins/names).
    pub fn name(self) -> &'static str {
        match self {
            PluginId::PrioritySort => "PrioritySort",
            PluginId::NodeUnschedulable => "NodeUnschedulable",
            PluginId::NodeName => "NodeName",
            PluginId::TaintToleration => "TaintToleration",
            PluginId::NodeAffinity => "NodeAffinity",
            PluginId::NodePorts => "NodePorts",
            PluginId::NodeResourcesFit => "NodeResourcesFit",
            PluginId::PodTopologySpread => "PodTopologySpread",
            PluginId::InterPodAffinity => "InterPodAffinity",
            PluginId::DefaultPreemption => "DefaultPreemption",
            PluginId::NodeResourcesBalancedAllocation => "NodeResourcesBalancedAllocation",
            PluginId::ImageLocality => "ImageLocality",
        }
    }

    pub fn parse(name: &str) -> Option<PluginId> {
        PluginId::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn has_filter(self) -> bool {
        matches!(
            self,
            PluginId::NodeUnschedulable
                | PluginId::NodeName
                | PluginId::TaintToleration
                | PluginId::NodeAffinity
                | PluginId::NodePorts
                | PluginId::NodeResourcesFit
                | PluginId::PodTopologySpread
                | PluginId::InterPodAffinity
        )
    }

    pub fn has_score(self) -> bool {
        matches!(
            self,
            PluginId::TaintToleration
                | PluginId::NodeAffinity
                | PluginId::NodeResourcesFit
                | PluginId::PodTopologySpread
                | PluginId::InterPodAffinity
                | PluginId::NodeResourcesBalancedAllocation
                | PluginId::ImageLocality
        )
    }
}

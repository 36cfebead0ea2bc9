//! One module per scheduler plugin, named as in `pkg/scheduler/framework/plugins/`; each plugin
//! that may reject a pod declares the cluster events that may undo it (`EVENTS_TO_REGISTER`).

use crate::events::ClusterEvent;

pub mod default_normalize;
pub mod default_preemption;
pub mod image_locality;
pub mod inert;
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

pub use inert::INERT_PLUGINS;

/// The events plugin `name` registers (`EnqueueExtensions.EventsToRegister`). `None` for a plugin
/// that registers no enqueue extensions: only PreEnqueue, PreFilter, Filter, Reserve and Permit
/// plugins do (`shouldHaveEnqueueExtensions` in pkg/scheduler/framework/runtime/framework.go), so
/// score-only plugins, PrioritySort and DefaultBinder have none.
pub fn events_to_register(name: &str) -> Option<&'static [ClusterEvent]> {
    let Some(id) = PluginId::parse(name) else {
        return inert::events_to_register(name);
    };
    Some(match id {
        PluginId::NodeUnschedulable => node_unschedulable::EVENTS_TO_REGISTER,
        PluginId::NodeName => node_name::EVENTS_TO_REGISTER,
        PluginId::TaintToleration => taint_toleration::EVENTS_TO_REGISTER,
        PluginId::NodeAffinity => node_affinity::EVENTS_TO_REGISTER,
        PluginId::NodePorts => node_ports::EVENTS_TO_REGISTER,
        PluginId::NodeResourcesFit => node_resources_fit::EVENTS_TO_REGISTER,
        PluginId::PodTopologySpread => pod_topology_spread::EVENTS_TO_REGISTER,
        PluginId::InterPodAffinity => inter_pod_affinity::EVENTS_TO_REGISTER,
        PluginId::DefaultPreemption => default_preemption::EVENTS_TO_REGISTER,
        PluginId::PrioritySort
        | PluginId::NodeResourcesBalancedAllocation
        | PluginId::ImageLocality => return None,
    })
}

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

    /// The bit of this plugin in a [`PluginIdSet`].
    fn bit(self) -> u16 {
        1 << (self as u16)
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

/// A set of plugins, as `sets.Set[string]` of plugin names in kube-scheduler (a bit per
/// [`PluginId`], so adding one per failing node costs nothing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct PluginIdSet(u16);

impl PluginIdSet {
    pub fn insert(&mut self, id: PluginId) {
        self.0 |= id.bit();
    }

    pub fn contains(self, id: PluginId) -> bool {
        self.0 & id.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The names sorted as strings, as `sets.List` returns them.
    pub fn names(self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = PluginId::ALL
            .into_iter()
            .filter(|&id| self.contains(id))
            .map(PluginId::name)
            .collect();
        names.sort_unstable();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_id_sets_list_their_names_sorted() {
        let mut set = PluginIdSet::default();
        assert!(set.is_empty());
        for id in [
            PluginId::TaintToleration,
            PluginId::NodeResourcesFit,
            PluginId::ImageLocality,
            PluginId::NodeResourcesFit,
        ] {
            set.insert(id);
        }
        assert!(set.contains(PluginId::ImageLocality));
        assert!(!set.contains(PluginId::NodeName));
        assert_eq!(
            set.names(),
            ["ImageLocality", "NodeResourcesFit", "TaintToleration"]
        );
        // Every plugin has a bit of its own.
        let mut all = PluginIdSet::default();
        for id in PluginId::ALL {
            all.insert(id);
        }
        assert_eq!(all.names().len(), PluginId::ALL.len());
    }
}

//! Scheduling profiles in the `KubeSchedulerConfiguration` shape: plugins enabled and disabled per
//! extension point (multiPoint, filter, score, postFilter), weights, and plugin args; resolved as
//! kube-scheduler merges them with its defaults (`mergePluginSet` in
//! pkg/scheduler/apis/config/v1/default_plugins.go, `expandMultiPointPlugins` in
//! pkg/scheduler/framework/runtime/framework.go).

use crate::error::SchedError;
use crate::events::ClusterEvent;
use crate::plugins::inter_pod_affinity::InterPodAffinityArgs;
use crate::plugins::node_affinity::NodeAffinityArgs;
use crate::plugins::node_resources_fit::{default_resources, FitArgs, ResourceSpec};
use crate::plugins::pod_topology_spread::PodTopologySpreadArgs;
use crate::plugins::{events_to_register, PluginId, INERT_PLUGINS};

/// `v1.Plugin`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginRef {
    pub name: String,
    /// Only meaningful for score plugins; 0 or absent means 1.
    pub weight: Option<i32>,
}

impl PluginRef {
    pub fn new(name: &str) -> PluginRef {
        PluginRef {
            name: name.into(),
            weight: None,
        }
    }
    pub fn weighted(name: &str, weight: i32) -> PluginRef {
        PluginRef {
            name: name.into(),
            weight: Some(weight),
        }
    }
}

/// `v1.PluginSet`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginSet {
    pub enabled: Vec<PluginRef>,
    /// `"*"` disables every default plugin of the point.
    pub disabled: Vec<PluginRef>,
}

/// `v1.Plugins`, limited to the points this engine runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginsConfig {
    pub multi_point: PluginSet,
    pub filter: PluginSet,
    pub score: PluginSet,
    pub post_filter: PluginSet,
}

/// `v1.PluginConfig`: typed args per plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PluginArgs {
    NodeResourcesFit(FitArgs),
    NodeResourcesBalancedAllocation(Vec<ResourceSpec>),
    InterPodAffinity(InterPodAffinityArgs),
    PodTopologySpread(PodTopologySpreadArgs),
    NodeAffinity(NodeAffinityArgs),
}

/// `v1.KubeSchedulerProfile`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileConfig {
    pub scheduler_name: String,
    /// `percentageOfNodesToScore`; `None` or 0 is adaptive.
    pub percentage_of_nodes_to_score: Option<i32>,
    pub plugins: PluginsConfig,
    pub plugin_config: Vec<PluginArgs>,
}

/// A resolved profile: the filter plugins in order, score plugins with weights, and args.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub scheduler_name: String,
    pub percentage_of_nodes_to_score: Option<i32>,
    /// Every plugin enabled at some extension point, inert ones included, in configuration order
    /// (`pluginsNeeded` in pkg/scheduler/framework/runtime/framework.go: the plugins instantiated).
    pub plugins: Vec<&'static str>,
    pub filters: Vec<PluginId>,
    pub scores: Vec<(PluginId, i64)>,
    pub preemption: bool,
    pub fit: FitArgs,
    pub balanced_resources: Vec<ResourceSpec>,
    pub inter_pod_affinity: InterPodAffinityArgs,
    pub pod_topology_spread: PodTopologySpreadArgs,
    pub node_affinity: NodeAffinityArgs,
}

/// The default profile's multiPoint plugins and weights
/// (pkg/scheduler/apis/config/v1/default_plugins.go `getDefaultPlugins`).
pub fn default_multi_point() -> Vec<PluginRef> {
    vec![
        PluginRef::new("SchedulingGates"),
        PluginRef::new("PrioritySort"),
        PluginRef::new("NodeUnschedulable"),
        PluginRef::new("NodeName"),
        PluginRef::weighted("TaintToleration", 3),
        PluginRef::weighted("NodeAffinity", 2),
        PluginRef::new("NodePorts"),
        PluginRef::weighted("NodeResourcesFit", 1),
        PluginRef::new("VolumeRestrictions"),
        PluginRef::new("NodeVolumeLimits"),
        PluginRef::new("VolumeBinding"),
        PluginRef::new("VolumeZone"),
        PluginRef::weighted("PodTopologySpread", 2),
        PluginRef::weighted("InterPodAffinity", 2),
        PluginRef::new("DefaultPreemption"),
        PluginRef::weighted("NodeResourcesBalancedAllocation", 1),
        PluginRef::weighted("ImageLocality", 1),
        PluginRef::new("DefaultBinder"),
    ]
}

/// `mergePluginSet`: defaults minus disabled ("*" = all), re-configured defaults replaced in
/// place, other custom plugins appended.
fn merge_plugin_set(defaults: &[PluginRef], custom: &PluginSet) -> Vec<PluginRef> {
    let disabled_all = custom.disabled.iter().any(|p| p.name == "*");
    let mut replaced = vec![false; custom.enabled.len()];
    let mut out = Vec::new();
    if !disabled_all {
        for d in defaults {
            if custom.disabled.iter().any(|p| p.name == d.name) {
                continue;
            }
            match custom.enabled.iter().position(|c| c.name == d.name) {
                Some(i) => {
                    if let Some(r) = replaced.get_mut(i) {
                        *r = true;
                    }
                    if let Some(c) = custom.enabled.get(i) {
                        out.push(c.clone());
                    }
                }
                None => out.push(d.clone()),
            }
        }
    }
    for (c, r) in custom.enabled.iter().zip(&replaced) {
        if !r {
            out.push(c.clone());
        }
    }
    out
}

fn check_known(p: &PluginRef) -> Result<Option<PluginId>, SchedError> {
    if p.name == "*" || INERT_PLUGINS.contains(&p.name.as_str()) {
        return Ok(None);
    }
    PluginId::parse(&p.name)
        .map(Some)
        .ok_or_else(|| SchedError::UnknownPlugin(p.name.clone()))
}

/// The plugins of one extension point (`expandMultiPointPlugins`): explicit overrides of
/// multiPoint plugins first, then multiPoint plugins, then other explicit ones.
fn expand(
    multi: &[PluginRef],
    point: &PluginSet,
    implements: fn(PluginId) -> bool,
) -> Result<Vec<(PluginId, Option<i32>)>, SchedError> {
    let explicit: Vec<(PluginId, Option<i32>)> = point
        .enabled
        .iter()
        .map(|p| Ok(check_known(p)?.map(|id| (id, p.weight))))
        .collect::<Result<Vec<_>, SchedError>>()?
        .into_iter()
        .flatten()
        .collect();
    for p in &point.disabled {
        check_known(p)?;
    }
    if point.disabled.iter().any(|p| p.name == "*") {
        return Ok(explicit);
    }
    let mut overrides = Vec::new();
    let mut from_multi = Vec::new();
    for p in multi {
        let Some(id) = check_known(p)? else { continue };
        if !implements(id) || point.disabled.iter().any(|d| d.name == p.name) {
            continue;
        }
        if explicit.iter().any(|(e, _)| *e == id) {
            overrides.push(id);
            continue;
        }
        if from_multi.iter().any(|(e, _)| *e == id) {
            return Err(SchedError::InvalidConfig(format!(
                "plugin {:?} already registered",
                p.name
            )));
        }
        from_multi.push((id, p.weight));
    }
    let mut out: Vec<(PluginId, Option<i32>)> = explicit
        .iter()
        .filter(|(id, _)| overrides.contains(id))
        .copied()
        .collect();
    out.extend(from_multi);
    for e in &explicit {
        if !out.iter().any(|(id, _)| *id == e.0) {
            out.push(*e);
        }
    }
    Ok(out)
}

impl Profile {
    /// kube-scheduler's default profile.
    pub fn default_profile() -> Profile {
        // The default config always resolves.
        Profile::from_config(&ProfileConfig::default()).unwrap_or_else(|_| Profile::fallback())
    }

    fn fallback() -> Profile {
        Profile {
            scheduler_name: "default-scheduler".into(),
            percentage_of_nodes_to_score: None,
            plugins: Vec::new(),
            filters: Vec::new(),
            scores: Vec::new(),
            preemption: false,
            fit: FitArgs::default(),
            balanced_resources: default_resources(),
            inter_pod_affinity: InterPodAffinityArgs::default(),
            pod_topology_spread: PodTopologySpreadArgs::default(),
            node_affinity: NodeAffinityArgs::default(),
        }
    }

    /// Resolves a profile against the defaults.
    pub fn from_config(cfg: &ProfileConfig) -> Result<Profile, SchedError> {
        let multi = merge_plugin_set(&default_multi_point(), &cfg.plugins.multi_point);
        for p in &multi {
            check_known(p)?;
        }
        let filters = expand(&multi, &cfg.plugins.filter, PluginId::has_filter)?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        let mut scores = Vec::new();
        for (id, weight) in expand(&multi, &cfg.plugins.score, PluginId::has_score)? {
            // Score-point weight wins, then multiPoint's; 0 means 1 (framework.go).
            let explicit = cfg
                .plugins
                .score
                .enabled
                .iter()
                .find(|p| p.name == id.name())
                .and_then(|p| p.weight);
            let w = explicit.or(weight).unwrap_or(0);
            if w < 0 {
                return Err(SchedError::InvalidConfig(format!(
                    "plugin {:?} weight {w} is negative",
                    id.name()
                )));
            }
            scores.push((id, if w == 0 { 1 } else { i64::from(w) }));
        }
        let preemption = expand(&multi, &cfg.plugins.post_filter, |id| {
            id == PluginId::DefaultPreemption
        })?
        .iter()
        .any(|(id, _)| *id == PluginId::DefaultPreemption);
        if let Some(p) = cfg.percentage_of_nodes_to_score {
            if !(0..=100).contains(&p) {
                return Err(SchedError::InvalidConfig(format!(
                    "percentageOfNodesToScore {p} must be in the range 0-100"
                )));
            }
        }
        let mut profile = Profile {
            scheduler_name: if cfg.scheduler_name.is_empty() {
                "default-scheduler".into()
            } else {
                cfg.scheduler_name.clone()
            },
            percentage_of_nodes_to_score: cfg.percentage_of_nodes_to_score,
            plugins: plugins_needed(&multi, &cfg.plugins),
            filters,
            scores,
            preemption,
            ..Profile::fallback()
        };
        for args in &cfg.plugin_config {
            match args {
                PluginArgs::NodeResourcesFit(a) => profile.fit = a.clone(),
                PluginArgs::NodeResourcesBalancedAllocation(r) => {
                    profile.balanced_resources = r.clone()
                }
                PluginArgs::InterPodAffinity(a) => {
                    if !(0..=100).contains(&a.hard_pod_affinity_weight) {
                        return Err(SchedError::InvalidConfig(
                            "hardPodAffinityWeight must be in the range 0-100".into(),
                        ));
                    }
                    profile.inter_pod_affinity = a.clone()
                }
                PluginArgs::PodTopologySpread(a) => profile.pod_topology_spread = a.clone(),
                PluginArgs::NodeAffinity(a) => profile.node_affinity = a.clone(),
            }
        }
        Ok(profile)
    }

    pub fn weight(&self, id: PluginId) -> Option<i64> {
        self.scores.iter().find(|(p, _)| *p == id).map(|(_, w)| *w)
    }

    /// The events each of the profile's plugins registered (`buildQueueingHintMap` over the
    /// framework's `EnqueueExtensions`), for the scheduling queue: plugin name → events, in
    /// profile order. Plugins that register no enqueue extensions are left out.
    pub fn events_to_register(&self) -> Vec<(&'static str, &'static [ClusterEvent])> {
        self.plugins
            .iter()
            .filter_map(|&name| events_to_register(name).map(|events| (name, events)))
            .collect()
    }
}

/// `pluginsNeeded`: the merged multiPoint plugins and every plugin an extension point enables
/// (a plugin disabled at one point still runs at the others), each once.
fn plugins_needed(multi: &[PluginRef], points: &PluginsConfig) -> Vec<&'static str> {
    let explicit = [&points.filter, &points.score, &points.post_filter];
    let mut out: Vec<&'static str> = Vec::new();
    for p in multi
        .iter()
        .chain(explicit.iter().flat_map(|set| set.enabled.iter()))
    {
        let name = PluginId::parse(&p.name)
            .map(PluginId::name)
            .or_else(|| INERT_PLUGINS.iter().copied().find(|n| *n == p.name));
        if let Some(name) = name {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_profile_has_kubernetes_filters_and_weights() {
        let p = Profile::default_profile();
        use PluginId::*;
        assert_eq!(
            p.filters,
            [
                NodeUnschedulable,
                NodeName,
                TaintToleration,
                NodeAffinity,
                NodePorts,
                NodeResourcesFit,
                PodTopologySpread,
                InterPodAffinity
            ]
        );
        assert_eq!(
            p.scores,
            [
                (TaintToleration, 3),
                (NodeAffinity, 2),
                (NodeResourcesFit, 1),
                (PodTopologySpread, 2),
                (InterPodAffinity, 2),
                (NodeResourcesBalancedAllocation, 1),
                (ImageLocality, 1)
            ]
        );
        assert!(p.preemption);
        assert_eq!(p.scheduler_name, "default-scheduler");
        // The default plugins that register events (default_plugins.go order); score-only ones,
        // PrioritySort and DefaultBinder register none.
        let registered: Vec<&str> = p.events_to_register().iter().map(|(n, _)| *n).collect();
        assert_eq!(
            registered,
            [
                "SchedulingGates",
                "NodeUnschedulable",
                "NodeName",
                "TaintToleration",
                "NodeAffinity",
                "NodePorts",
                "NodeResourcesFit",
                "VolumeRestrictions",
                "NodeVolumeLimits",
                "VolumeBinding",
                "VolumeZone",
                "PodTopologySpread",
                "InterPodAffinity",
                "DefaultPreemption",
            ]
        );
    }

    #[test]
    fn the_events_table_follows_the_enabled_plugins() {
        use crate::events::{action_type, on, EventResource, NODE_ADD};
        let names =
            |p: &Profile| -> Vec<&str> { p.events_to_register().iter().map(|(n, _)| *n).collect() };
        // Disabled everywhere: gone. Disabled at one point only: still instantiated (pluginsNeeded).
        let cfg = ProfileConfig {
            plugins: PluginsConfig {
                multi_point: PluginSet {
                    enabled: vec![PluginRef::new("DynamicResources")],
                    disabled: vec![PluginRef::new("TaintToleration")],
                },
                filter: PluginSet {
                    enabled: vec![],
                    disabled: vec![PluginRef::new("NodePorts")],
                },
                ..PluginsConfig::default()
            },
            ..ProfileConfig::default()
        };
        let p = Profile::from_config(&cfg).unwrap();
        assert!(!names(&p).contains(&"TaintToleration"));
        assert!(names(&p).contains(&"NodePorts"));
        assert_eq!(names(&p).last(), Some(&"DynamicResources"));
        // Only what a profile names, with the events its plugin declares.
        let only_fit = ProfileConfig {
            plugins: PluginsConfig {
                multi_point: PluginSet {
                    enabled: vec![],
                    disabled: vec![PluginRef::new("*")],
                },
                filter: PluginSet {
                    enabled: vec![PluginRef::new("NodeResourcesFit")],
                    disabled: vec![],
                },
                ..PluginsConfig::default()
            },
            ..ProfileConfig::default()
        };
        let p = Profile::from_config(&only_fit).unwrap();
        assert_eq!(
            p.events_to_register(),
            [(
                "NodeResourcesFit",
                &[
                    on(
                        EventResource::Pod,
                        action_type::DELETE | action_type::UPDATE_POD_SCALE_DOWN
                    ),
                    on(
                        EventResource::Node,
                        NODE_ADD | action_type::UPDATE_NODE_ALLOCATABLE
                    ),
                ][..]
            )]
        );
    }

    #[test]
    fn disabling_really_disables_and_weights_override() {
        let cfg = ProfileConfig {
            plugins: PluginsConfig {
                multi_point: PluginSet {
                    enabled: vec![PluginRef::weighted("ImageLocality", 5)],
                    disabled: vec![PluginRef::new("TaintToleration")],
                },
                score: PluginSet {
                    enabled: vec![PluginRef::weighted("NodeAffinity", 7)],
                    disabled: vec![PluginRef::new("InterPodAffinity")],
                },
                filter: PluginSet {
                    enabled: vec![],
                    disabled: vec![PluginRef::new("NodePorts")],
                },
                post_filter: PluginSet {
                    enabled: vec![],
                    disabled: vec![PluginRef::new("*")],
                },
            },
            ..ProfileConfig::default()
        };
        let p = Profile::from_config(&cfg).unwrap();
        assert!(!p.filters.contains(&PluginId::TaintToleration));
        assert!(!p.filters.contains(&PluginId::NodePorts));
        assert!(p.filters.contains(&PluginId::InterPodAffinity));
        assert_eq!(p.weight(PluginId::TaintToleration), None);
        assert_eq!(p.weight(PluginId::InterPodAffinity), None);
        assert_eq!(p.weight(PluginId::NodeAffinity), Some(7));
        assert_eq!(p.weight(PluginId::ImageLocality), Some(5));
        // The explicit override comes first.
        assert_eq!(p.scores.first(), Some(&(PluginId::NodeAffinity, 7)));
        assert!(!p.preemption);
    }

    #[test]
    fn star_disables_all_and_unknown_plugins_are_errors() {
        let cfg = ProfileConfig {
            plugins: PluginsConfig {
                score: PluginSet {
                    enabled: vec![PluginRef::weighted("NodeResourcesFit", 0)],
                    disabled: vec![PluginRef::new("*")],
                },
                ..PluginsConfig::default()
            },
            ..ProfileConfig::default()
        };
        let p = Profile::from_config(&cfg).unwrap();
        assert_eq!(p.scores, [(PluginId::NodeResourcesFit, 1)]);
        let bad = ProfileConfig {
            plugins: PluginsConfig {
                filter: PluginSet {
                    enabled: vec![PluginRef::new("Bogus")],
                    disabled: vec![],
                },
                ..PluginsConfig::default()
            },
            ..ProfileConfig::default()
        };
        assert_eq!(
            Profile::from_config(&bad).unwrap_err().code(),
            "E_UNKNOWN_PLUGIN"
        );
        let pct = ProfileConfig {
            percentage_of_nodes_to_score: Some(101),
            ..ProfileConfig::default()
        };
        assert_eq!(
            Profile::from_config(&pct).unwrap_err().code(),
            "E_INVALID_CONFIG"
        );
    }
}

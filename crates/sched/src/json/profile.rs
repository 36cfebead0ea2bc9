//! A `KubeSchedulerProfile` (kubescheduler.config.k8s.io/v1) as JSON → the engine's Profile.
//! The configuration is strict, as kube-scheduler's decoder is: an unknown field is an error.

use kubewasm_api::{v1, CodedError};
use serde::Deserialize;
use serde_json::Value;

use super::objects::{node_selector_term, preferred_term, spread_constraint};
use crate as sched;
use crate::plugins::inter_pod_affinity::InterPodAffinityArgs;
use crate::plugins::node_affinity::NodeAffinityArgs;
use crate::plugins::node_resources_fit::{
    default_resources, FitArgs, ResourceSpec, ScoringStrategy, ScoringStrategyType,
    UtilizationShapePoint,
};
use crate::plugins::pod_topology_spread::{DefaultingType, PodTopologySpreadArgs};

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct PluginJson {
    name: String,
    weight: Option<i32>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct PluginSetJson {
    enabled: Vec<PluginJson>,
    disabled: Vec<PluginJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct PluginsJson {
    multi_point: PluginSetJson,
    filter: PluginSetJson,
    score: PluginSetJson,
    post_filter: PluginSetJson,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct PluginConfigJson {
    name: String,
    args: Value,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ProfileJson {
    scheduler_name: String,
    percentage_of_nodes_to_score: Option<i32>,
    plugins: PluginsJson,
    plugin_config: Vec<PluginConfigJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ResourceSpecJson {
    name: String,
    weight: i64,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ShapePointJson {
    utilization: i64,
    score: i64,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct RatioJson {
    shape: Vec<ShapePointJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ScoringStrategyJson {
    #[serde(rename = "type")]
    kind: String,
    resources: Option<Vec<ResourceSpecJson>>,
    requested_to_capacity_ratio: Option<RatioJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct FitArgsJson {
    ignored_resources: Vec<String>,
    ignored_resource_groups: Vec<String>,
    scoring_strategy: Option<ScoringStrategyJson>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct BalancedArgsJson {
    resources: Option<Vec<ResourceSpecJson>>,
}

#[derive(Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct InterPodAffinityArgsJson {
    hard_pod_affinity_weight: i64,
    ignore_preferred_terms_of_existing_pods: bool,
}

impl Default for InterPodAffinityArgsJson {
    fn default() -> Self {
        // `DefaultHardPodAffinityWeight` — pkg/scheduler/apis/config/v1/defaults.go.
        InterPodAffinityArgsJson {
            hard_pod_affinity_weight: 1,
            ignore_preferred_terms_of_existing_pods: false,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct SpreadArgsJson<'a> {
    #[serde(borrow)]
    default_constraints: Vec<v1::TopologySpreadConstraint<'a>>,
    defaulting_type: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct NodeAffinityArgsJson<'a> {
    #[serde(borrow)]
    added_affinity: Option<v1::NodeAffinity<'a>>,
}

fn bad(message: String) -> CodedError {
    CodedError::new("E_INVALID_CONFIG", message)
}

/// A plugin's args, read from their own JSON value (an owned Value lends no strings: `'static`).
fn args<T: Deserialize<'static>>(plugin: &str, value: &Value) -> Result<T, CodedError> {
    let value = if value.is_null() {
        Value::Object(Default::default())
    } else {
        value.clone()
    };
    T::deserialize(value).map_err(|e| bad(format!("{plugin} args: {e}")))
}

fn resource_specs(specs: Option<Vec<ResourceSpecJson>>) -> Vec<ResourceSpec> {
    match specs {
        Some(list) => list
            .into_iter()
            .map(|r| ResourceSpec {
                name: r.name,
                weight: r.weight,
            })
            .collect(),
        None => default_resources(),
    }
}

fn plugin_set(set: PluginSetJson) -> sched::PluginSet {
    let refs = |list: Vec<PluginJson>| {
        list.into_iter()
            .map(|p| sched::PluginRef {
                name: p.name,
                weight: p.weight,
            })
            .collect()
    };
    sched::PluginSet {
        enabled: refs(set.enabled),
        disabled: refs(set.disabled),
    }
}

fn plugin_args(config: PluginConfigJson) -> Result<sched::PluginArgs, CodedError> {
    let name = config.name.as_str();
    Ok(match name {
        "NodeResourcesFit" => {
            let a: FitArgsJson = args(name, &config.args)?;
            let strategy = a.scoring_strategy.unwrap_or_default();
            let kind = match strategy.kind.as_str() {
                "" | "LeastAllocated" => ScoringStrategyType::LeastAllocated,
                "MostAllocated" => ScoringStrategyType::MostAllocated,
                "RequestedToCapacityRatio" => ScoringStrategyType::RequestedToCapacityRatio,
                other => return Err(bad(format!("unknown scoring strategy {other:?}"))),
            };
            sched::PluginArgs::NodeResourcesFit(FitArgs {
                ignored_resources: a.ignored_resources.into_iter().collect(),
                ignored_resource_groups: a.ignored_resource_groups.into_iter().collect(),
                scoring_strategy: ScoringStrategy {
                    kind,
                    resources: resource_specs(strategy.resources),
                    shape: strategy
                        .requested_to_capacity_ratio
                        .map(|r| {
                            r.shape
                                .into_iter()
                                .map(|p| UtilizationShapePoint {
                                    utilization: p.utilization,
                                    score: p.score,
                                })
                                .collect()
                        })
                        .unwrap_or_default(),
                },
            })
        }
        "NodeResourcesBalancedAllocation" => {
            let a: BalancedArgsJson = args(name, &config.args)?;
            sched::PluginArgs::NodeResourcesBalancedAllocation(resource_specs(a.resources))
        }
        "InterPodAffinity" => {
            let a: InterPodAffinityArgsJson = args(name, &config.args)?;
            sched::PluginArgs::InterPodAffinity(InterPodAffinityArgs {
                hard_pod_affinity_weight: a.hard_pod_affinity_weight,
                ignore_preferred_terms_of_existing_pods: a.ignore_preferred_terms_of_existing_pods,
            })
        }
        "PodTopologySpread" => {
            let a: SpreadArgsJson<'static> = args(name, &config.args)?;
            sched::PluginArgs::PodTopologySpread(PodTopologySpreadArgs {
                default_constraints: a
                    .default_constraints
                    .iter()
                    .map(spread_constraint)
                    .collect::<Result<_, _>>()
                    .map_err(CodedError::from)?,
                defaulting_type: match a.defaulting_type.as_str() {
                    "" | "System" => DefaultingType::System,
                    "List" => DefaultingType::List,
                    other => return Err(bad(format!("unknown defaultingType {other:?}"))),
                },
            })
        }
        "NodeAffinity" => {
            let a: NodeAffinityArgsJson<'static> = args(name, &config.args)?;
            let added = a.added_affinity.unwrap_or_default();
            sched::PluginArgs::NodeAffinity(NodeAffinityArgs {
                added_required: added
                    .required_during_scheduling_ignored_during_execution
                    .map(|r| {
                        r.node_selector_terms
                            .iter()
                            .map(node_selector_term)
                            .collect::<Result<Vec<_>, _>>()
                    })
                    .transpose()
                    .map_err(CodedError::from)?,
                added_preferred: added
                    .preferred_during_scheduling_ignored_during_execution
                    .iter()
                    .map(preferred_term)
                    .collect::<Result<_, sched::SchedError>>()
                    .map_err(CodedError::from)?,
            })
        }
        other => return Err(bad(format!("no args are known for plugin {other:?}"))),
    })
}

/// The engine's profile for a KubeSchedulerProfile's JSON.
pub(super) fn profile(json: &str) -> Result<sched::Profile, CodedError> {
    let json: ProfileJson = serde_json::from_str(json).map_err(CodedError::bad_json)?;
    let config = sched::ProfileConfig {
        scheduler_name: if json.scheduler_name.is_empty() {
            "default-scheduler".into()
        } else {
            json.scheduler_name
        },
        percentage_of_nodes_to_score: json.percentage_of_nodes_to_score,
        plugins: sched::PluginsConfig {
            multi_point: plugin_set(json.plugins.multi_point),
            filter: plugin_set(json.plugins.filter),
            score: plugin_set(json.plugins.score),
            post_filter: plugin_set(json.plugins.post_filter),
        },
        plugin_config: json
            .plugin_config
            .into_iter()
            .map(plugin_args)
            .collect::<Result<_, _>>()?,
    };
    sched::Profile::from_config(&config).map_err(CodedError::from)
}

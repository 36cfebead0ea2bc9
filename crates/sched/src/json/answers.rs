//! The engine's answers as JSON, camelCase as the TypeScript types name them (ts/wasm/scheduler.ts
//! `Placement`, `Explanation`, `RegisteredEvent`): placements, explanations and the events table.

use serde::ser::{Serialize, Serializer};
use serde::Serialize as DeriveSerialize;

use kubewasm_api::CodedError;

use crate::events::ClusterEvent;
use crate::{Explanation, Placement};

#[derive(DeriveSerialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PlacementJson {
    pod: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    node: Option<String>,
    evaluated_nodes: usize,
    feasible_nodes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nominated_node: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    victims: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unschedulable_plugins: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ErrorJson>,
}

#[derive(DeriveSerialize)]
struct ErrorJson {
    code: &'static str,
    message: String,
}

impl PlacementJson {
    /// The slot of a pod the engine could not read: `{pod, error: {code, message}}`.
    pub(super) fn unreadable(pod: String, error: CodedError) -> PlacementJson {
        PlacementJson {
            pod,
            node: None,
            evaluated_nodes: 0,
            feasible_nodes: 0,
            message: None,
            nominated_node: None,
            victims: Vec::new(),
            unschedulable_plugins: Vec::new(),
            error: Some(ErrorJson {
                code: error.code(),
                message: error.to_string(),
            }),
        }
    }
}

impl From<Placement> for PlacementJson {
    fn from(p: Placement) -> Self {
        PlacementJson {
            pod: p.pod,
            node: p.node,
            evaluated_nodes: p.evaluated_nodes,
            feasible_nodes: p.feasible_nodes,
            message: p.message,
            nominated_node: p.nominated_node,
            victims: p.victims,
            unschedulable_plugins: p.unschedulable_plugins,
            error: None,
        }
    }
}

#[derive(DeriveSerialize)]
#[serde(rename_all = "camelCase")]
struct VerdictJson {
    plugin: &'static str,
    code: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    reasons: Vec<String>,
}

#[derive(DeriveSerialize)]
#[serde(rename_all = "camelCase")]
struct ScoreJson {
    plugin: &'static str,
    weight: i64,
    skipped: bool,
    raw: i64,
    normalized: i64,
    weighted: i64,
}

#[derive(DeriveSerialize)]
#[serde(rename_all = "camelCase")]
struct NodeExplanationJson {
    node: String,
    feasible: bool,
    examined: bool,
    filters: Vec<VerdictJson>,
    scores: Vec<ScoreJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<i64>,
}

#[derive(DeriveSerialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ExplanationJson {
    pod: String,
    num_feasible_nodes_to_find: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    chosen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    nodes: Vec<NodeExplanationJson>,
}

impl From<Explanation> for ExplanationJson {
    fn from(e: Explanation) -> Self {
        ExplanationJson {
            pod: e.pod,
            num_feasible_nodes_to_find: e.num_feasible_nodes_to_find,
            chosen: e.chosen,
            message: e.message,
            nodes: e
                .nodes
                .into_iter()
                .map(|n| NodeExplanationJson {
                    node: n.node,
                    feasible: n.feasible,
                    examined: n.examined,
                    filters: n
                        .filters
                        .into_iter()
                        .map(|f| VerdictJson {
                            plugin: f.plugin,
                            code: f.code,
                            reasons: f.reasons,
                        })
                        .collect(),
                    scores: n
                        .scores
                        .into_iter()
                        .map(|s| ScoreJson {
                            plugin: s.plugin,
                            weight: s.weight,
                            skipped: s.skipped,
                            raw: s.raw,
                            normalized: s.normalized,
                            weighted: s.weighted,
                        })
                        .collect(),
                    total: n.total,
                })
                .collect(),
        }
    }
}

/// The events each plugin of a profile registered, as a JSON object in profile order:
/// `{"NodeResourcesFit":[{"resource":"Pod","actionType":258},…],…}`.
pub(super) struct EventsJson<'a>(pub(super) &'a [(&'static str, &'static [ClusterEvent])]);

#[derive(DeriveSerialize)]
#[serde(rename_all = "camelCase")]
struct EventJson {
    resource: &'static str,
    action_type: u32,
}

impl Serialize for EventsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(plugin, events)| {
            let events: Vec<EventJson> = events
                .iter()
                .map(|e| EventJson {
                    resource: e.resource.as_str(),
                    action_type: e.action_type,
                })
                .collect();
            (*plugin, events)
        }))
    }
}

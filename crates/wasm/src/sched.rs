use std::collections::BTreeMap;

use kubewasm_sched::plugins::node_resources_fit::{fits_request, FitArgs};
use kubewasm_sched::{Explanation, NodeResources, Placement, Resource, Scheduler};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::error::{to_js, BindingError, Coded};
use crate::k8s::{sched_node, sched_pod, LabelSelectorJson, Node, Pod};
use crate::profile::{profile, ProfileJson};

impl Coded for kubewasm_sched::SchedError {
    fn code(&self) -> &'static str {
        kubewasm_sched::SchedError::code(self)
    }
}

/// Resource amounts as JSON: `{"milliCpu":100,"memory":524288000,"scalar":{"example.com/gpu":1}}`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ResourceJson {
    milli_cpu: i64,
    memory: i64,
    ephemeral_storage: i64,
    scalar: BTreeMap<String, i64>,
}

impl From<ResourceJson> for Resource {
    fn from(r: ResourceJson) -> Self {
        Resource {
            milli_cpu: r.milli_cpu,
            memory: r.memory,
            ephemeral_storage: r.ephemeral_storage,
            scalar: r.scalar,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NodeResourcesJson {
    allocatable: ResourceJson,
    allowed_pod_number: i64,
    #[serde(default)]
    requested: ResourceJson,
    #[serde(default)]
    pod_count: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InsufficientJson {
    resource_name: String,
    reason: String,
    requested: i64,
    used: i64,
    capacity: i64,
}

/// The NodeResourcesFit filter for one pod request and one node (both JSON). Returns the JSON
/// list of insufficient resources, `[]` when the pod fits.
#[wasm_bindgen(js_name = "nodeResourcesFit")]
pub fn node_resources_fit(pod_json: &str, node_json: &str) -> Result<String, JsValue> {
    let pod: ResourceJson = parse(pod_json)?;
    let node: NodeResourcesJson = parse(node_json)?;
    let node = NodeResources {
        allocatable: node.allocatable.into(),
        allowed_pod_number: node.allowed_pod_number,
        requested: node.requested.into(),
        pod_count: node.pod_count,
    };
    let short: Vec<InsufficientJson> = fits_request(&pod.into(), &node, &FitArgs::default())
        .into_iter()
        .map(|r| InsufficientJson {
            resource_name: r.resource_name,
            reason: r.reason,
            requested: r.requested,
            used: r.used,
            capacity: r.capacity,
        })
        .collect();
    json(&short)
}

fn parse<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, JsValue> {
    serde_json::from_str(text).map_err(|e| to_js(BindingError::bad_json(e)))
}

/// The batch entry points take JSON as UTF-8 bytes: a Uint8Array crosses with one copy, where a
/// multi-megabyte string goes through the glue's per-character loop.
fn parse_bytes<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, JsValue> {
    serde_json::from_slice(bytes).map_err(|e| to_js(BindingError::bad_json(e)))
}

fn json<T: Serialize>(value: &T) -> Result<String, JsValue> {
    serde_json::to_string(value).map_err(|e| to_js(BindingError::bad_json(e)))
}

/// A pod to schedule: the Pod, and the selector `helper.DefaultSelector` derives from the
/// Services/ReplicaSets/StatefulSets selecting it (for the system default spread constraints).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PendingPod {
    pod: Pod,
    #[serde(default)]
    default_spread_selector: Option<LabelSelectorJson>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlacementJson {
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

#[derive(Serialize)]
struct ErrorJson {
    code: &'static str,
    message: String,
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VerdictJson {
    plugin: &'static str,
    code: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    reasons: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ScoreJson {
    plugin: &'static str,
    weight: i64,
    skipped: bool,
    raw: i64,
    normalized: i64,
    weighted: i64,
}

#[derive(Serialize)]
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

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExplanationJson {
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

/// kube-scheduler's filter/score engine with its node table in wasm memory. Nodes and pods cross
/// as Kubernetes JSON, a whole batch per call. Free it with `free()`.
#[wasm_bindgen(js_name = "SchedulerEngine")]
pub struct SchedulerEngine {
    inner: Scheduler,
    /// Queue order for pods given without one (PrioritySort's tie-break).
    next_timestamp: i64,
}

#[wasm_bindgen(js_class = "SchedulerEngine")]
impl SchedulerEngine {
    /// An engine for one KubeSchedulerProfile (JSON; `""` = the default profile). Ties between
    /// top-scoring nodes are broken by a SplitMix64 generator seeded with `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(profile_json: &str, seed: u64) -> Result<SchedulerEngine, JsValue> {
        let inner = if profile_json.is_empty() {
            Scheduler::with_default_profile(seed)
        } else {
            let profile = profile(parse::<ProfileJson>(profile_json)?).map_err(to_js)?;
            Scheduler::new(profile, seed).map_err(to_js)?
        };
        Ok(SchedulerEngine {
            inner,
            next_timestamp: 0,
        })
    }

    /// Adds or updates nodes (a JSON array of v1 Nodes).
    #[wasm_bindgen(js_name = "upsertNodes")]
    pub fn upsert_nodes(&mut self, nodes_json: &[u8]) -> Result<(), JsValue> {
        for node in parse_bytes::<Vec<Node>>(nodes_json)? {
            let spec = sched_node(&node).map_err(to_js)?;
            self.inner.upsert_node(&spec).map_err(to_js)?;
        }
        Ok(())
    }

    /// Removes a node and the pods on it.
    #[wasm_bindgen(js_name = "removeNode")]
    pub fn remove_node(&mut self, name: &str) -> Result<(), JsValue> {
        self.inner.remove_node(name).map_err(to_js)
    }

    /// Adds pods already bound to nodes (a JSON array of v1 Pods with `spec.nodeName`); confirms
    /// pods this engine had assumed.
    #[wasm_bindgen(js_name = "addPods")]
    pub fn add_pods(&mut self, pods_json: &[u8]) -> Result<(), JsValue> {
        for pod in parse_bytes::<Vec<Pod>>(pods_json)? {
            let spec = sched_pod(&pod, self.tick(), None).map_err(to_js)?;
            self.inner.add_pod(&spec).map_err(to_js)?;
        }
        Ok(())
    }

    /// Removes a pod (deleted, or an assumption whose binding failed).
    #[wasm_bindgen(js_name = "removePod")]
    pub fn remove_pod(&mut self, namespace: &str, name: &str) -> Result<(), JsValue> {
        self.inner.remove_pod(namespace, name).map_err(to_js)
    }

    /// Marks an assumed pod as bound.
    #[wasm_bindgen(js_name = "bindPod")]
    pub fn bind_pod(&mut self, namespace: &str, name: &str) -> Result<(), JsValue> {
        self.inner.bind_pod(namespace, name).map_err(to_js)
    }

    /// Namespace labels, for affinity terms with a namespaceSelector (JSON object).
    #[wasm_bindgen(js_name = "setNamespaceLabels")]
    pub fn set_namespace_labels(
        &mut self,
        namespace: &str,
        labels_json: &str,
    ) -> Result<(), JsValue> {
        let labels: BTreeMap<String, String> = parse(labels_json)?;
        let labels: Vec<(String, String)> = labels.into_iter().collect();
        self.inner.set_namespace_labels(namespace, &labels);
        Ok(())
    }

    /// Schedules a batch of pending pods in order (a JSON array of `{pod, defaultSpreadSelector?}`):
    /// each placed pod is assumed on its node before the next is scheduled. Returns a JSON array of
    /// placements; a pod the engine could not read gets `{pod, error: {code, message}}`.
    #[wasm_bindgen(js_name = "scheduleBatch")]
    pub fn schedule_batch(&mut self, pending_json: &[u8]) -> Result<String, JsValue> {
        let pending: Vec<PendingPod> = parse_bytes(pending_json)?;
        let mut out = Vec::with_capacity(pending.len());
        for p in &pending {
            let key = format!("{}/{}", p.pod.metadata.namespace, p.pod.metadata.name);
            let result = sched_pod(&p.pod, self.tick(), p.default_spread_selector.as_ref())
                .map_err(|e| ErrorJson {
                    code: e.code,
                    message: e.message,
                })
                .and_then(|spec| {
                    self.inner.schedule_one(&spec).map_err(|e| ErrorJson {
                        code: e.code(),
                        message: e.to_string(),
                    })
                });
            out.push(match result {
                Ok(placement) => placement.into(),
                Err(error) => PlacementJson {
                    pod: key,
                    node: None,
                    evaluated_nodes: 0,
                    feasible_nodes: 0,
                    message: None,
                    nominated_node: None,
                    victims: Vec::new(),
                    unschedulable_plugins: Vec::new(),
                    error: Some(error),
                },
            });
        }
        json(&out)
    }

    /// Every node's filter verdict per plugin and every score per plugin for one pending pod
    /// (`{pod, defaultSpreadSelector?}` JSON), and the choice — without changing anything.
    pub fn explain(&mut self, pending_json: &[u8]) -> Result<String, JsValue> {
        let p: PendingPod = parse_bytes(pending_json)?;
        let spec =
            sched_pod(&p.pod, self.tick(), p.default_spread_selector.as_ref()).map_err(to_js)?;
        let explanation = self.inner.explain(&spec).map_err(to_js)?;
        json(&ExplanationJson::from(explanation))
    }

    /// The events each plugin of the profile registered, for the scheduling queue: a JSON object
    /// `{"NodeResourcesFit":[{"resource":"Pod","actionType":258},…],…}` (ActionType bits).
    #[wasm_bindgen(js_name = "eventsToRegister")]
    pub fn events_to_register(&self) -> Result<String, JsValue> {
        let table: serde_json::Map<String, serde_json::Value> = self
            .inner
            .profile()
            .events_to_register()
            .into_iter()
            .map(|(name, events)| {
                let events = events
                    .iter()
                    .map(|e| {
                        serde_json::json!({"resource": e.resource.as_str(), "actionType": e.action_type})
                    })
                    .collect();
                (name.to_string(), serde_json::Value::Array(events))
            })
            .collect();
        json(&table)
    }

    fn tick(&mut self) -> i64 {
        self.next_timestamp += 1;
        self.next_timestamp
    }
}

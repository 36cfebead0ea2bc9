//! The scheduler engine's handle. The engine and its JSON face live in `kubewasm-sched`
//! (`kubewasm_sched::json`); this file only hands bytes over and maps errors.

use kubewasm_sched::json::{node_resources_fit as fit, JsonScheduler};
use wasm_bindgen::prelude::*;

use crate::error::{Coded, IntoJs};

impl Coded for kubewasm_sched::SchedError {
    fn code(&self) -> &'static str {
        kubewasm_sched::SchedError::code(self)
    }
}

/// The NodeResourcesFit filter for one pod request and one node (both JSON). Returns the JSON
/// list of insufficient resources, `[]` when the pod fits.
#[wasm_bindgen(js_name = "nodeResourcesFit")]
pub fn node_resources_fit(pod_json: &str, node_json: &str) -> Result<String, JsValue> {
    fit(pod_json, node_json).js()
}

/// kube-scheduler's filter/score engine with its node table in wasm memory. Nodes and pods cross
/// as Kubernetes JSON (UTF-8 bytes: a Uint8Array crosses with one copy, where a multi-megabyte
/// string goes through the glue's per-character loop), a whole batch per call. Free it with
/// `free()`.
#[wasm_bindgen(js_name = "SchedulerEngine")]
pub struct SchedulerEngine {
    inner: JsonScheduler,
}

#[wasm_bindgen(js_class = "SchedulerEngine")]
impl SchedulerEngine {
    /// An engine for one KubeSchedulerProfile (JSON; `""` = the default profile). Ties between
    /// top-scoring nodes are broken by a SplitMix64 generator seeded with `seed`.
    #[wasm_bindgen(constructor)]
    pub fn new(profile_json: &str, seed: u64) -> Result<SchedulerEngine, JsValue> {
        Ok(SchedulerEngine {
            inner: JsonScheduler::new(profile_json, seed).js()?,
        })
    }

    /// Adds or updates nodes (a JSON array of v1 Nodes).
    #[wasm_bindgen(js_name = "upsertNodes")]
    pub fn upsert_nodes(&mut self, nodes_json: &[u8]) -> Result<(), JsValue> {
        self.inner.upsert_nodes(nodes_json).js()
    }

    /// Removes a node and the pods on it.
    #[wasm_bindgen(js_name = "removeNode")]
    pub fn remove_node(&mut self, name: &str) -> Result<(), JsValue> {
        self.inner.scheduler_mut().remove_node(name).js()
    }

    /// Adds pods already bound to nodes (a JSON array of v1 Pods with `spec.nodeName`); confirms
    /// pods this engine had assumed.
    #[wasm_bindgen(js_name = "addPods")]
    pub fn add_pods(&mut self, pods_json: &[u8]) -> Result<(), JsValue> {
        self.inner.add_pods(pods_json).js()
    }

    /// Removes a pod (deleted, or an assumption whose binding failed).
    #[wasm_bindgen(js_name = "removePod")]
    pub fn remove_pod(&mut self, namespace: &str, name: &str) -> Result<(), JsValue> {
        self.inner.scheduler_mut().remove_pod(namespace, name).js()
    }

    /// Marks an assumed pod as bound.
    #[wasm_bindgen(js_name = "bindPod")]
    pub fn bind_pod(&mut self, namespace: &str, name: &str) -> Result<(), JsValue> {
        self.inner.scheduler_mut().bind_pod(namespace, name).js()
    }

    /// Namespace labels, for affinity terms with a namespaceSelector (JSON object).
    #[wasm_bindgen(js_name = "setNamespaceLabels")]
    pub fn set_namespace_labels(
        &mut self,
        namespace: &str,
        labels_json: &str,
    ) -> Result<(), JsValue> {
        self.inner.set_namespace_labels(namespace, labels_json).js()
    }

    /// Schedules a batch of pending pods in order (a JSON array of `{pod, defaultSpreadSelector?}`):
    /// each placed pod is assumed on its node before the next is scheduled. Returns a JSON array of
    /// placements; a pod the engine could not read gets `{pod, error: {code, message}}`.
    #[wasm_bindgen(js_name = "scheduleBatch")]
    pub fn schedule_batch(&mut self, pending_json: &[u8]) -> Result<String, JsValue> {
        self.inner.schedule_batch(pending_json).js()
    }

    /// Every node's filter verdict per plugin and every score per plugin for one pending pod
    /// (`{pod, defaultSpreadSelector?}` JSON), and the choice — without changing anything.
    pub fn explain(&mut self, pending_json: &[u8]) -> Result<String, JsValue> {
        self.inner.explain(pending_json).js()
    }

    /// The events each plugin of the profile registered, for the scheduling queue: a JSON object
    /// `{"NodeResourcesFit":[{"resource":"Pod","actionType":258},…],…}` (ActionType bits).
    #[wasm_bindgen(js_name = "eventsToRegister")]
    pub fn events_to_register(&self) -> Result<String, JsValue> {
        self.inner.events_to_register().js()
    }
}

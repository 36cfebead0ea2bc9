use std::collections::BTreeMap;

use kubewasm_sched::plugins::node_resources_fit::{fits_request, FitArgs};
use kubewasm_sched::{NodeResources, Resource};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::error::{to_js, BindingError};

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
struct NodeJson {
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
    let node: NodeJson = parse(node_json)?;
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
    serde_json::to_string(&short).map_err(|e| to_js(BindingError::bad_json(e)))
}

fn parse<'a, T: Deserialize<'a>>(json: &'a str) -> Result<T, JsValue> {
    serde_json::from_str(json).map_err(|e| to_js(BindingError::bad_json(e)))
}

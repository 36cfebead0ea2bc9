//! The NodeResourcesFit filter on its own, JSON in and out: one pod request and one node's
//! resources (in the scheduler's units), the resources the node is short of.

use std::collections::BTreeMap;

use kubewasm_api::CodedError;
use serde::{Deserialize, Serialize};

use crate::plugins::node_resources_fit::{fits_request, FitArgs};
use crate::{NodeResources, Resource};

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

/// `fitsRequest` for a pod request and a node (both JSON, default FitArgs): the JSON list of
/// insufficient resources, `[]` when the pod fits.
pub fn node_resources_fit(pod_json: &str, node_json: &str) -> Result<String, CodedError> {
    let pod: ResourceJson = serde_json::from_str(pod_json).map_err(CodedError::bad_json)?;
    let node: NodeResourcesJson = serde_json::from_str(node_json).map_err(CodedError::bad_json)?;
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
    serde_json::to_string(&short).map_err(CodedError::bad_json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_what_the_node_is_short_of() {
        let short = node_resources_fit(
            r#"{"milliCpu":5000,"scalar":{"example.com/gpu":2}}"#,
            r#"{"allocatable":{"milliCpu":4000,"memory":1000000000},"allowedPodNumber":110}"#,
        );
        assert_eq!(
            short.as_deref(),
            Ok(
                r#"[{"resourceName":"cpu","reason":"Insufficient cpu","requested":5000,"used":0,"capacity":4000},{"resourceName":"example.com/gpu","reason":"Insufficient example.com/gpu","requested":2,"used":0,"capacity":0}]"#
            )
        );
        let fits = node_resources_fit(r#"{}"#, r#"{"allocatable":{},"allowedPodNumber":1}"#);
        assert_eq!(fits.as_deref(), Ok("[]"));
        let bad = node_resources_fit(r#"{"bogus":1}"#, r#"{}"#).map_err(|e| e.code());
        assert_eq!(bad, Err("E_BAD_JSON"));
    }
}

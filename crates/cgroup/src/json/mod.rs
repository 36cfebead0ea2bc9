//! The JSON face of this crate, what the wasm binding hands over and back: a JSON array of v1
//! Pods (read through the shared mirror, `kubewasm_api::v1::Pod`) and the node config in,
//! `NodeCgroups` as JSON out.
//!
//! Pods are read as the API server writes them: unknown fields (status, managedFields, …) are
//! skipped and `null` reads as the zero value, as Go's decoder does. Malformed JSON fails the
//! call; a pod that cannot be computed (a bad quantity, no containers) gets `{error}` in its slot
//! and stays out of the QoS tiers.
//!
//! ```
//! use kubewasm_cgroup::json::{node_config, pod_cgroups_json};
//! let node = node_config(r#"{"memoryCapacity":17179869184}"#).unwrap();
//! let out = pod_cgroups_json(r#"[{"metadata":{"uid":"u1"},"spec":{"containers":[{"name":"a"}]}}]"#, &node).unwrap();
//! assert!(out.starts_with(r#"{"pods":[{"uid":"u1","name":"","namespace":"","qosClass":"BestEffort""#));
//! ```

mod node_config;
mod write;

use std::fmt;

use kubewasm_api::{v1, CodedError};
use serde::de::{self, Deserializer, Visitor};

pub use node_config::node_config;

use crate::pod_update::is_static_or_mirror_pod;
use crate::{
    CgroupError, Container, ContainerRestartPolicy, NodeBatch, NodeConfig, PodNamespaces, PodSpec,
    ResourceList, Resources,
};
use write::NodeWriter;

/// One input pod: who it is, and its spec or why it has none.
#[derive(Debug, Clone)]
pub struct PodInput {
    pub uid: String,
    pub name: String,
    pub namespace: String,
    pub spec: Result<PodSpec, CgroupError>,
}

/// Reads a JSON array of v1 Pods. Malformed JSON fails the call; a bad quantity fails its pod.
pub fn pods(json: &str) -> Result<Vec<PodInput>, CodedError> {
    let pods: Vec<v1::Pod<'_>> = serde_json::from_str(json).map_err(CodedError::bad_json)?;
    Ok(pods.into_iter().map(pod_input).collect())
}

/// JSON bytes as text: one UTF-8 check of the whole, cheaper than serde_json's per string.
pub fn json_text(bytes: &[u8]) -> Result<&str, CodedError> {
    std::str::from_utf8(bytes).map_err(CodedError::not_utf8)
}

/// The JSON text of a Pod array in, the `NodeCgroups` JSON out. Each pod is read, computed,
/// written and dropped before the next is read, so the batch never holds more than one pod's
/// values. Malformed JSON fails the call (before a bad node does, as when reading came first).
pub fn pod_cgroups_json(pods_json: &str, node: &NodeConfig) -> Result<String, CodedError> {
    let mut batch = match NodeBatch::new(node) {
        Ok(batch) => batch,
        Err(err) => {
            pods(pods_json)?;
            return Err(err.into());
        }
    };
    // Output is about twice the input for typical pods, plus the tiers.
    let mut out = NodeWriter::new(pods_json.len().saturating_mul(5) / 2 + 2048);
    let mut de = serde_json::Deserializer::from_str(pods_json);
    de.deserialize_seq(StreamPods {
        batch: &mut batch,
        out: &mut out,
    })
    .and_then(|()| de.end())
    .map_err(CodedError::bad_json)?;
    Ok(out.finish(&batch.tiers()?))
}

/// Reads the pod array one element at a time (the same grammar and errors as a `Vec`).
struct StreamPods<'a, 'n> {
    batch: &'a mut NodeBatch<'n>,
    out: &'a mut NodeWriter,
}

impl<'de> Visitor<'de> for StreamPods<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(pod) = seq.next_element::<v1::Pod<'de>>()? {
            let pod = pod_input(pod);
            self.out.pod(&pod, |spec| self.batch.pod(spec));
        }
        Ok(())
    }
}

fn pod_input(pod: v1::Pod<'_>) -> PodInput {
    let v1::Pod { metadata, spec } = pod;
    let static_or_mirror = is_static_or_mirror_pod(&metadata.annotations);
    let uid = metadata.uid.into_owned();
    let spec = pod_spec(uid.clone(), spec, static_or_mirror);
    PodInput {
        uid,
        name: metadata.name.into_owned(),
        namespace: metadata.namespace.into_owned(),
        spec,
    }
}

fn pod_spec(
    uid: String,
    spec: v1::PodSpec<'_>,
    static_or_mirror: bool,
) -> Result<PodSpec, CgroupError> {
    let containers = |list: Vec<v1::Container<'_>>| -> Result<Vec<Container>, CgroupError> {
        list.into_iter().map(container).collect()
    };
    Ok(PodSpec {
        uid,
        containers: containers(spec.containers)?,
        init_containers: containers(spec.init_containers)?,
        overhead: spec
            .overhead
            .map(resource_list)
            .transpose()?
            .unwrap_or_default(),
        priority: spec.priority,
        priority_class_name: spec.priority_class_name.into_owned(),
        static_or_mirror,
        namespaces: PodNamespaces {
            host_network: spec.host_network,
            host_pid: spec.host_pid,
            host_ipc: spec.host_ipc,
            share_process_namespace: spec.share_process_namespace,
            sandbox_pid: 0,
        },
    })
}

fn resource_list(list: v1::ResourceList) -> Result<ResourceList, CgroupError> {
    list.into_quantities().map_err(|bad| bad.error.into())
}

fn container(c: v1::Container<'_>) -> Result<Container, CgroupError> {
    Ok(Container {
        name: c.name.into_owned(),
        resources: Resources {
            requests: resource_list(c.resources.requests)?,
            limits: resource_list(c.resources.limits)?,
        },
        restart_policy: c.restart_policy.as_deref().and_then(restart_policy),
    })
}

/// A container's `restartPolicy`. Go compares the string: anything but "Always" is not
/// restartable.
fn restart_policy(text: &str) -> Option<ContainerRestartPolicy> {
    match text {
        "Always" => Some(ContainerRestartPolicy::Always),
        "OnFailure" => Some(ContainerRestartPolicy::OnFailure),
        "Never" => Some(ContainerRestartPolicy::Never),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok<T>(result: Result<T, CodedError>) -> T {
        match result {
            Ok(value) => value,
            Err(err) => panic!("{}: {err}", err.code()),
        }
    }

    const NODE: &str = r#"{"memoryCapacity":17179869184}"#;

    fn run(pods: &str, node: &str) -> serde_json::Value {
        let node = ok(node_config(node));
        let json = ok(pod_cgroups_json(pods, &node));
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn oci_object_is_the_core_fragment_json() {
        // The mirror structs must say what OciFragment::to_json says, for every shape.
        let batch = r#"[{"metadata":{"uid":"u1"},"spec":{"containers":[
            {"name":"a","resources":{"requests":{"cpu":"250m","memory":"1Gi"},"limits":{"cpu":"1","memory":"2Gi"}}},
            {"name":"b"}],"hostPID":true}}]"#;
        for node in [
            NODE,
            r#"{"memoryCapacity":17179869184,"cgroupDriver":"cgroupfs","cgroupV2":false,"cpuCfsQuota":false}"#,
            r#"{"memoryCapacity":17179869184,"enforceMemoryQos":true}"#,
        ] {
            let parsed = ok(pods(batch));
            let spec = parsed.into_iter().next().unwrap().spec.unwrap();
            let config = ok(node_config(node));
            let core = crate::pod_cgroups(&spec, &config).unwrap();
            let got = run(batch, node);
            for (i, container) in core.containers.iter().enumerate() {
                let want: serde_json::Value =
                    serde_json::from_str(&container.oci.to_json()).unwrap();
                assert_eq!(got["pods"][0]["containers"][i]["oci"], want, "{node}");
            }
        }
    }

    #[test]
    fn pods_read_like_go_decodes_them() {
        let got = run(
            r#"[{"metadata":{"uid":"u","name":"n","namespace":"ns","annotations":null,"labels":{"x":"y"}},
                 "spec":{"containers":[{"name":"a","image":"nginx","resources":{"requests":{"cpu":0.5,"memory":" 1Gi "},"limits":null}}],
                         "initContainers":null,"overhead":{"cpu":null}},
                 "status":{"phase":"Running"}}]"#,
            NODE,
        );
        let pod = &got["pods"][0];
        assert_eq!(pod["requests"]["cpu"], "500m");
        assert_eq!(pod["requests"]["memory"], "1Gi");
        assert_eq!(pod["qosClass"], "Burstable");
    }

    #[test]
    fn static_and_mirror_pods_are_critical() {
        let pod = |annotations: &str| {
            format!(
                r#"[{{"metadata":{{"uid":"u","annotations":{annotations}}},"spec":{{"priorityClassName":"system-node-critical","containers":[{{"name":"a"}}]}}}}]"#
            )
        };
        let score = |annotations: &str| {
            run(&pod(annotations), NODE)["pods"][0]["containers"][0]["resources"]["oomScoreAdj"]
                .as_i64()
                .unwrap()
        };
        assert_eq!(score(r#"{"kubernetes.io/config.mirror":"abc"}"#), -997);
        assert_eq!(score(r#"{"kubernetes.io/config.source":"file"}"#), -997);
        assert_eq!(score(r#"{"kubernetes.io/config.source":"api"}"#), 1000);
        assert_eq!(score("{}"), 1000);
    }

    #[test]
    fn bad_inputs() {
        assert!(pods("[{").is_err());
        assert_eq!(
            json_text(b"[\xff]").err().map(|e| e.code()),
            Some("E_BAD_JSON")
        );
        assert!(pods(r#"{"spec":{}}"#).is_err());
        assert!(node_config("{}").is_err());
        assert!(node_config(r#"{"memoryCapacity":1,"memoryCapasity":2}"#).is_err());
        let node = ok(node_config(
            r#"{"memoryCapacity":1,"memoryThrottlingFactor":null}"#,
        ));
        assert_eq!(node.memory_throttling_factor, None);
        assert_eq!(node.allocatable_memory, 1);
        let got = run(
            r#"[{"spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"1KB"}}}]}},{"spec":{"containers":[{"name":"a"}]}}]"#,
            NODE,
        );
        assert_eq!(got["pods"][0]["error"]["code"], "E_QUANTITY_FORMAT");
        assert_eq!(got["pods"][1]["qosClass"], "BestEffort");
    }
}

#[cfg(test)]
mod timing {
    use super::*;

    /// `KUBEWASM_CGROUP_PODS=pods.json cargo test --release -p kubewasm-cgroup timing -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn batch_timing() {
        let Ok(path) = std::env::var("KUBEWASM_CGROUP_PODS") else {
            return;
        };
        let json = std::fs::read_to_string(path).unwrap();
        let Ok(node) =
            node_config(r#"{"memoryCapacity":68719476736,"allocatableMemory":66571993088}"#)
        else {
            return;
        };
        for _ in 0..20 {
            let t = std::time::Instant::now();
            let Ok(out) = pod_cgroups_json(&json, &node) else {
                return;
            };
            eprintln!("total {:?} ({} bytes)", t.elapsed(), out.len());
        }
    }
}

//! The engine's JSON face, what the wasm binding hands over and back: v1 Nodes and Pods (read
//! through the shared mirror, `kubewasm_api::v1`) and a KubeSchedulerProfile in as JSON, a whole
//! batch per call; placements, explanations and the profile's events table out as JSON.
//!
//! Objects are read as the API server writes them: unknown fields are skipped and `null` reads
//! as the zero value, as Go's decoder does. Every failure is a [`CodedError`] with the engine's
//! stable code (`E_BAD_JSON` for JSON that does not parse or has the wrong shape).
//!
//! ```
//! use kubewasm_sched::json::JsonScheduler;
//! let mut s = JsonScheduler::new("", 42).unwrap(); // "" = the default profile
//! s.upsert_nodes(br#"[{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","memory":"32Gi","pods":"110"}}}]"#).unwrap();
//! let placements = s.schedule_batch(br#"[{"pod":{"metadata":{"name":"p","namespace":"default"},"spec":{"containers":[{}]}}}]"#).unwrap();
//! assert!(placements.starts_with(r#"[{"pod":"default/p","node":"n1""#));
//! ```

mod answers;
mod fit;
mod objects;
mod profile;

use std::collections::BTreeMap;

use kubewasm_api::{v1, CodedError};
use serde::{Deserialize, Serialize};

pub use fit::node_resources_fit;

use crate::{SchedError, Scheduler};
use answers::{EventsJson, ExplanationJson, PlacementJson};
use objects::{node_spec, pod_spec};

/// As it crosses to JavaScript: the same code, the same message (`E_UNKNOWN_NODE: n1`).
impl From<SchedError> for CodedError {
    fn from(e: SchedError) -> CodedError {
        CodedError::new(e.code(), e.to_string())
    }
}

/// A pod to schedule: the Pod, and the selector `helper.DefaultSelector` derives from the
/// Services/ReplicaSets/StatefulSets selecting it (for the system default spread constraints).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PendingPod<'a> {
    #[serde(borrow)]
    pod: v1::Pod<'a>,
    #[serde(borrow, default)]
    default_spread_selector: Option<v1::LabelSelector<'a>>,
}

fn parse<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, CodedError> {
    serde_json::from_slice(bytes).map_err(CodedError::bad_json)
}

fn json<T: Serialize>(value: &T) -> Result<String, CodedError> {
    serde_json::to_string(value).map_err(CodedError::bad_json)
}

/// A [`Scheduler`] fed and answering JSON. Pods given without a queue order get one from a
/// counter (PrioritySort's tie-break), in the order they arrive.
#[derive(Debug)]
pub struct JsonScheduler {
    inner: Scheduler,
    next_timestamp: i64,
}

impl JsonScheduler {
    /// An engine for one KubeSchedulerProfile (JSON; `""` = the default profile). Ties between
    /// top-scoring nodes are broken by a SplitMix64 generator seeded with `seed`.
    pub fn new(profile_json: &str, seed: u64) -> Result<JsonScheduler, CodedError> {
        let inner = if profile_json.is_empty() {
            Scheduler::with_default_profile(seed)
        } else {
            Scheduler::new(profile::profile(profile_json)?, seed)?
        };
        Ok(JsonScheduler {
            inner,
            next_timestamp: 0,
        })
    }

    pub fn scheduler(&self) -> &Scheduler {
        &self.inner
    }

    /// For the calls that take no JSON (removals, bindings).
    pub fn scheduler_mut(&mut self) -> &mut Scheduler {
        &mut self.inner
    }

    /// Adds or updates nodes (a JSON array of v1 Nodes), in order; stops at the first it cannot read.
    pub fn upsert_nodes(&mut self, nodes_json: &[u8]) -> Result<(), CodedError> {
        for node in parse::<Vec<v1::Node<'_>>>(nodes_json)? {
            self.inner.upsert_node(&node_spec(&node)?)?;
        }
        Ok(())
    }

    /// Adds pods already bound to nodes (a JSON array of v1 Pods with `spec.nodeName`), in order;
    /// confirms pods this engine had assumed. Stops at the first it cannot read or place.
    pub fn add_pods(&mut self, pods_json: &[u8]) -> Result<(), CodedError> {
        for pod in parse::<Vec<v1::Pod<'_>>>(pods_json)? {
            let spec = pod_spec(&pod, self.tick(), None)?;
            self.inner.add_pod(&spec)?;
        }
        Ok(())
    }

    /// Namespace labels, for affinity terms with a namespaceSelector (a JSON object).
    pub fn set_namespace_labels(
        &mut self,
        namespace: &str,
        labels_json: &str,
    ) -> Result<(), CodedError> {
        let labels: BTreeMap<String, String> =
            serde_json::from_str(labels_json).map_err(CodedError::bad_json)?;
        let labels: Vec<(String, String)> = labels.into_iter().collect();
        self.inner.set_namespace_labels(namespace, &labels);
        Ok(())
    }

    /// Schedules a batch of pending pods in order (a JSON array of `{pod, defaultSpreadSelector?}`):
    /// each placed pod is assumed on its node before the next is scheduled. Returns a JSON array
    /// of placements; a pod the engine could not read gets `{pod, error: {code, message}}`.
    pub fn schedule_batch(&mut self, pending_json: &[u8]) -> Result<String, CodedError> {
        let pending: Vec<PendingPod<'_>> = parse(pending_json)?;
        let mut out = Vec::with_capacity(pending.len());
        for p in &pending {
            let result = pod_spec(&p.pod, self.tick(), p.default_spread_selector.as_ref())
                .and_then(|spec| Ok(self.inner.schedule_one(&spec)?));
            out.push(match result {
                Ok(placement) => PlacementJson::from(placement),
                Err(error) => {
                    let meta = &p.pod.metadata;
                    PlacementJson::unreadable(format!("{}/{}", meta.namespace, meta.name), error)
                }
            });
        }
        json(&out)
    }

    /// Every node's filter verdict per plugin and every score per plugin for one pending pod
    /// (`{pod, defaultSpreadSelector?}` JSON), and the choice — without changing anything.
    pub fn explain(&mut self, pending_json: &[u8]) -> Result<String, CodedError> {
        let p: PendingPod<'_> = parse(pending_json)?;
        let spec = pod_spec(&p.pod, self.tick(), p.default_spread_selector.as_ref())?;
        json(&ExplanationJson::from(self.inner.explain(&spec)?))
    }

    /// The events each plugin of the profile registered, for the scheduling queue: a JSON object
    /// `{"NodeResourcesFit":[{"resource":"Pod","actionType":258},…],…}` (ActionType bits).
    pub fn events_to_register(&self) -> Result<String, CodedError> {
        json(&EventsJson(&self.inner.profile().events_to_register()))
    }

    fn tick(&mut self) -> i64 {
        self.next_timestamp += 1;
        self.next_timestamp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: &[u8] = br#"[{"metadata":{"name":"n1","labels":{"zone":"a"}},"status":{"allocatable":{"cpu":"4","memory":"32Gi","pods":"110"}}},
        {"metadata":{"name":"n2","labels":null},"spec":{"unschedulable":true,"taints":null},"status":{"allocatable":{"cpu":" 4 ","memory":null,"pods":110}}}]"#;

    fn engine() -> JsonScheduler {
        let mut s = JsonScheduler::new("", 1).unwrap();
        s.upsert_nodes(NODES).unwrap();
        s
    }

    #[test]
    fn objects_read_as_go_decodes_them() {
        let s = engine();
        assert_eq!(s.scheduler().cluster().num_nodes(), 2);
        let mut s = s;
        let out = s
            .schedule_batch(br#"[{"pod":{"metadata":{"name":"p","namespace":"default","labels":null},
                "spec":{"containers":[{"resources":{"requests":{"cpu":" 100m ","memory":null}},"ports":null}],
                        "tolerations":null,"nodeSelector":{"zone":"a"},"affinity":null}}}]"#)
            .unwrap();
        assert_eq!(
            out,
            r#"[{"pod":"default/p","node":"n1","evaluatedNodes":2,"feasibleNodes":1}]"#
        );
    }

    #[test]
    fn a_pod_it_cannot_read_gets_its_error_in_its_slot() {
        let mut s = engine();
        let out = s
            .schedule_batch(
                br#"[{"pod":{"metadata":{"name":"bad","namespace":"default"},
                    "spec":{"containers":[{"resources":{"requests":{"cpu":"lots"}}}]}}},
                {"pod":{"metadata":{"name":"sel","namespace":"default"},
                    "spec":{"tolerations":[{"key":"k","operator":"Maybe"}]}}}]"#,
            )
            .unwrap();
        let slots: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(slots[0]["error"]["code"], "E_INVALID_FIELD");
        assert_eq!(
            slots[0]["error"]["message"],
            "cpu: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': \"lots\""
        );
        assert_eq!(slots[1]["pod"], "default/sel");
        assert_eq!(slots[1]["error"]["code"], "E_INVALID_FIELD");
        // Malformed JSON fails the call.
        let bad = s.schedule_batch(b"[{").map_err(|e| e.code());
        assert_eq!(bad, Err("E_BAD_JSON"));
        let labels = s.add_pods(br#"[{"metadata":{"labels":{"a":1}},"spec":{"nodeName":"n1"}}]"#);
        assert_eq!(labels.map_err(|e| e.code()), Err("E_BAD_JSON"));
    }

    #[test]
    fn profiles_keep_their_codes() {
        let code = |json: &str| JsonScheduler::new(json, 0).err().map(|e| e.code());
        assert_eq!(code(r#"{"bogus":1}"#), Some("E_BAD_JSON"));
        assert_eq!(
            code(r#"{"plugins":{"multiPoint":{"enabled":[{"name":"NoSuch"}]}}}"#),
            Some("E_UNKNOWN_PLUGIN")
        );
        let weird = JsonScheduler::new(
            r#"{"pluginConfig":[{"name":"NodeResourcesFit","args":{"scoringStrategy":{"type":"Weird"}}}]}"#,
            0,
        )
        .err()
        .map(|e| (e.code(), e.to_string()));
        assert_eq!(
            weird,
            Some((
                "E_INVALID_CONFIG",
                "unknown scoring strategy \"Weird\"".into()
            ))
        );
        assert!(JsonScheduler::new(
            r#"{"pluginConfig":[{"name":"PodTopologySpread","args":{"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}]}}]}"#,
            0
        )
        .is_ok());
    }

    #[test]
    fn the_events_table_is_in_profile_order() {
        let s = JsonScheduler::new(
            r#"{"plugins":{"multiPoint":{"disabled":[{"name":"*"}]},"filter":{"enabled":[{"name":"NodePorts"},{"name":"NodeName"}]}}}"#,
            0,
        )
        .unwrap();
        assert_eq!(
            s.events_to_register().unwrap(),
            r#"{"NodePorts":[{"resource":"Pod","actionType":2},{"resource":"Node","actionType":25}],"NodeName":[{"resource":"Node","actionType":25}]}"#
        );
    }
}

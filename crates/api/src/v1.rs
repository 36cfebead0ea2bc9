//! The v1 Pod and Node (k8s.io/api/core/v1, with metav1's ObjectMeta and LabelSelector) as the
//! core crates read them from JSON: one mirror for the scheduler and the kubelet math alike.
//!
//! Objects are read as the API server writes them and as Go's `encoding/json` decodes them:
//! unknown fields (status, managedFields, …) are skipped unread, and `null` reads as the zero
//! value. Only the fields some core crate reads are declared. Quantities are parsed while they are
//! read, so that a bad one fails the object that holds it, not the batch around it.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::{Quantity, QuantityError};

/// `ConfigMirrorAnnotationKey` — pkg/kubelet/types/pod_update.go.
pub const CONFIG_MIRROR_ANNOTATION_KEY: &str = "kubernetes.io/config.mirror";
/// `ConfigSourceAnnotationKey` — pkg/kubelet/types/pod_update.go.
pub const CONFIG_SOURCE_ANNOTATION_KEY: &str = "kubernetes.io/config.source";

/// `null` reads as the zero value, as Go's `encoding/json` leaves the field.
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// A JSON string, borrowed from the input text when it holds no escapes (nearly every string in
/// an object): reading an object then costs no allocation per string.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Str<'a>(pub Cow<'a, str>);

impl Str<'_> {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_owned(self) -> String {
        self.0.into_owned()
    }
}

impl<'a> From<&'a str> for Str<'a> {
    fn from(text: &'a str) -> Self {
        Str(Cow::Borrowed(text))
    }
}

impl PartialEq<str> for Str<'_> {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Str<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl std::ops::Deref for Str<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Str<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct StrVisitor;
        impl<'de> Visitor<'de> for StrVisitor {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(v)))
            }
        }
        d.deserialize_str(StrVisitor)
    }
}

/// Label key → value.
pub type Labels<'a> = BTreeMap<Str<'a>, Str<'a>>;

/// A field only the scheduler reads, kept as its JSON text (borrowed: no allocation) and read
/// when asked. The kubelet math reads thousands of pods a call and never looks at it.
#[derive(Debug, Clone, Copy)]
pub struct Deferred<'a, T> {
    raw: Option<&'a RawValue>,
    value: PhantomData<fn() -> T>,
}

impl<T> Default for Deferred<'_, T> {
    fn default() -> Self {
        Deferred {
            raw: None,
            value: PhantomData,
        }
    }
}

impl<'a, T: Deserialize<'a> + Default> Deferred<'a, T> {
    /// The field; absent or `null` reads as the zero value. The error, if any, is serde_json's
    /// for the field's own text.
    pub fn get(&self) -> Result<T, serde_json::Error> {
        match self.raw {
            None => Ok(T::default()),
            Some(raw) => Ok(serde_json::from_str::<Option<T>>(raw.get())?.unwrap_or_default()),
        }
    }
}

impl<'de: 'a, 'a, T> Deserialize<'de> for Deferred<'a, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Deferred {
            raw: Some(<&'a RawValue>::deserialize(d)?),
            value: PhantomData,
        })
    }
}

/// `metav1.ObjectMeta`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectMeta<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub name: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub namespace: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub uid: Str<'a>,
    /// Deferred: only the scheduler reads labels.
    #[serde(borrow)]
    pub labels: Deferred<'a, Labels<'a>>,
    #[serde(borrow)]
    pub annotations: Annotations<'a>,
    #[serde(borrow)]
    pub deletion_timestamp: Option<Str<'a>>,
}

/// The annotations a core crate reads; every other one is skipped unread (a
/// `kubectl.kubernetes.io/last-applied-configuration` can be the size of the object).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations<'a> {
    /// `kubernetes.io/config.mirror` is set (to anything).
    pub config_mirror: bool,
    /// `kubernetes.io/config.source`.
    pub config_source: Option<Str<'a>>,
}

impl<'de: 'a, 'a> Deserialize<'de> for Annotations<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct AnnotationsVisitor;
        impl<'de> Visitor<'de> for AnnotationsVisitor {
            type Value = Annotations<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of annotations")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Annotations<'de>, E> {
                Ok(Annotations::default())
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Annotations<'de>, A::Error> {
                let mut found = Annotations::default();
                while let Some(key) = map.next_key::<Str<'de>>()? {
                    if key.as_str() == CONFIG_MIRROR_ANNOTATION_KEY {
                        map.next_value::<IgnoredAny>()?;
                        found.config_mirror = true;
                    } else if key.as_str() == CONFIG_SOURCE_ANNOTATION_KEY {
                        found.config_source = map.next_value::<Option<Str<'de>>>()?;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(found)
            }
        }
        d.deserialize_any(AnnotationsVisitor)
    }
}

/// `metav1.LabelSelector`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelSelector<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub match_labels: Labels<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub match_expressions: Vec<LabelSelectorRequirement<'a>>,
}

/// `metav1.LabelSelectorRequirement`; also `v1.NodeSelectorRequirement`, which has the same fields.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelSelectorRequirement<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub key: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub operator: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub values: Vec<Str<'a>>,
}

/// `v1.NodeSelectorRequirement`.
pub type NodeSelectorRequirement<'a> = LabelSelectorRequirement<'a>;

/// `v1.ResourceList` as read: resource name → quantity. As a `map[string]Quantity` decodes, a
/// repeated name keeps its last value; a bad quantity makes the whole list the error of the first
/// bad name in order, and the JSON around it still reads.
#[derive(Debug, Clone)]
/// (The error is boxed: lists are moved with their containers, and errors are rare.)
pub struct ResourceList(Result<BTreeMap<String, Quantity>, Box<BadQuantity>>);

/// The first quantity of a list that did not parse, and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadQuantity {
    pub name: String,
    pub error: QuantityError,
}

impl Default for ResourceList {
    fn default() -> Self {
        ResourceList(Ok(BTreeMap::new()))
    }
}

impl ResourceList {
    pub fn quantities(&self) -> Result<&BTreeMap<String, Quantity>, &BadQuantity> {
        self.0.as_ref().map_err(|bad| &**bad)
    }

    pub fn into_quantities(self) -> Result<BTreeMap<String, Quantity>, BadQuantity> {
        self.0.map_err(|bad| *bad)
    }
}

impl<'de> Deserialize<'de> for ResourceList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = ResourceList;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResourceList, A::Error> {
                let mut list = BTreeMap::new();
                let mut errors: BTreeMap<String, QuantityError> = BTreeMap::new();
                while let Some(name) = map.next_key::<String>()? {
                    let ParsedQuantity(parsed) = map.next_value()?;
                    match parsed {
                        Ok(quantity) => {
                            if !errors.is_empty() {
                                errors.remove(&name);
                            }
                            list.insert(name, quantity);
                        }
                        Err(error) => {
                            list.remove(&name);
                            errors.insert(name, error);
                        }
                    }
                }
                Ok(ResourceList(match errors.into_iter().next() {
                    Some((name, error)) => Err(Box::new(BadQuantity { name, error })),
                    None => Ok(list),
                }))
            }
        }
        d.deserialize_map(ListVisitor)
    }
}

/// A quantity parsed from what `Quantity.UnmarshalJSON` accepts: a string (trimmed), a bare
/// number, or `null` for zero.
struct ParsedQuantity(Result<Quantity, QuantityError>);

impl<'de> Deserialize<'de> for ParsedQuantity {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct QuantityVisitor;
        impl Visitor<'_> for QuantityVisitor {
            type Value = ParsedQuantity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a quantity string or number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ParsedQuantity, E> {
                Ok(ParsedQuantity(Quantity::parse(v.trim())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ParsedQuantity, E> {
                Ok(ParsedQuantity(Quantity::parse(&v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ParsedQuantity, E> {
                Ok(ParsedQuantity(Quantity::parse(&v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ParsedQuantity, E> {
                Ok(ParsedQuantity(Quantity::parse(&v.to_string())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<ParsedQuantity, E> {
                Ok(ParsedQuantity(Quantity::parse("0")))
            }
        }
        d.deserialize_any(QuantityVisitor)
    }
}

/// `v1.ResourceRequirements` (without claims).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ResourceRequirements {
    #[serde(deserialize_with = "nullable")]
    pub requests: ResourceList,
    #[serde(deserialize_with = "nullable")]
    pub limits: ResourceList,
}

/// `v1.ContainerPort`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerPort<'a> {
    #[serde(deserialize_with = "nullable")]
    pub host_port: i32,
    #[serde(borrow, deserialize_with = "nullable")]
    pub protocol: Str<'a>,
    #[serde(borrow, rename = "hostIP", deserialize_with = "nullable")]
    pub host_ip: Str<'a>,
}

/// `v1.Container`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Container<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub name: Str<'a>,
    // Deferred: only the scheduler reads images (ImageLocality) and ports (NodePorts).
    #[serde(borrow)]
    pub image: Deferred<'a, Str<'a>>,
    #[serde(deserialize_with = "nullable")]
    pub resources: ResourceRequirements,
    #[serde(borrow)]
    pub ports: Deferred<'a, Vec<ContainerPort<'a>>>,
    /// On an init container, `Always` makes it a sidecar.
    #[serde(borrow)]
    pub restart_policy: Option<Str<'a>>,
}

/// `v1.Toleration`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Toleration<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub key: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub operator: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub value: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub effect: Str<'a>,
}

/// `v1.NodeSelectorTerm`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelectorTerm<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub match_expressions: Vec<NodeSelectorRequirement<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub match_fields: Vec<NodeSelectorRequirement<'a>>,
}

/// `v1.NodeSelector`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelector<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub node_selector_terms: Vec<NodeSelectorTerm<'a>>,
}

/// `v1.PreferredSchedulingTerm`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PreferredSchedulingTerm<'a> {
    #[serde(deserialize_with = "nullable")]
    pub weight: i32,
    #[serde(borrow, deserialize_with = "nullable")]
    pub preference: NodeSelectorTerm<'a>,
}

/// `v1.NodeAffinity`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeAffinity<'a> {
    #[serde(borrow)]
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredSchedulingTerm<'a>>,
}

/// `v1.PodAffinityTerm`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAffinityTerm<'a> {
    #[serde(borrow)]
    pub label_selector: Option<LabelSelector<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub namespaces: Vec<Str<'a>>,
    #[serde(borrow)]
    pub namespace_selector: Option<LabelSelector<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub topology_key: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub match_label_keys: Vec<Str<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub mismatch_label_keys: Vec<Str<'a>>,
}

/// `v1.WeightedPodAffinityTerm`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WeightedPodAffinityTerm<'a> {
    #[serde(deserialize_with = "nullable")]
    pub weight: i32,
    #[serde(borrow, deserialize_with = "nullable")]
    pub pod_affinity_term: PodAffinityTerm<'a>,
}

/// `v1.PodAffinity`, and `v1.PodAntiAffinity`, which has the same fields.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAffinity<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub required_during_scheduling_ignored_during_execution: Vec<PodAffinityTerm<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub preferred_during_scheduling_ignored_during_execution: Vec<WeightedPodAffinityTerm<'a>>,
}

/// `v1.Affinity`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Affinity<'a> {
    #[serde(borrow)]
    pub node_affinity: Option<NodeAffinity<'a>>,
    #[serde(borrow)]
    pub pod_affinity: Option<PodAffinity<'a>>,
    #[serde(borrow)]
    pub pod_anti_affinity: Option<PodAffinity<'a>>,
}

/// `v1.TopologySpreadConstraint`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TopologySpreadConstraint<'a> {
    #[serde(deserialize_with = "nullable")]
    pub max_skew: i32,
    #[serde(borrow, deserialize_with = "nullable")]
    pub topology_key: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub when_unsatisfiable: Str<'a>,
    #[serde(borrow)]
    pub label_selector: Option<LabelSelector<'a>>,
    pub min_domains: Option<i32>,
    #[serde(borrow)]
    pub node_affinity_policy: Option<Str<'a>>,
    #[serde(borrow)]
    pub node_taints_policy: Option<Str<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub match_label_keys: Vec<Str<'a>>,
}

/// `v1.PodSpec`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodSpec<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub node_name: Str<'a>,
    // Deferred: only the scheduler reads placement constraints.
    #[serde(borrow)]
    pub node_selector: Deferred<'a, Labels<'a>>,
    #[serde(borrow)]
    pub affinity: Deferred<'a, Option<Affinity<'a>>>,
    #[serde(borrow)]
    pub tolerations: Deferred<'a, Vec<Toleration<'a>>>,
    #[serde(borrow)]
    pub topology_spread_constraints: Deferred<'a, Vec<TopologySpreadConstraint<'a>>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub containers: Vec<Container<'a>>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub init_containers: Vec<Container<'a>>,
    /// RuntimeClass overhead; `None` when absent or null.
    pub overhead: Option<ResourceList>,
    pub priority: Option<i32>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub priority_class_name: Str<'a>,
    #[serde(borrow)]
    pub preemption_policy: Option<Str<'a>>,
    #[serde(deserialize_with = "nullable")]
    pub host_network: bool,
    #[serde(rename = "hostPID", deserialize_with = "nullable")]
    pub host_pid: bool,
    #[serde(rename = "hostIPC", deserialize_with = "nullable")]
    pub host_ipc: bool,
    #[serde(deserialize_with = "nullable")]
    pub share_process_namespace: bool,
}

/// `v1.Pod`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Pod<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub metadata: ObjectMeta<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub spec: PodSpec<'a>,
}

/// `v1.Taint`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Taint<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub key: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub value: Str<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub effect: Str<'a>,
}

/// `v1.NodeSpec`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct NodeSpec<'a> {
    #[serde(deserialize_with = "nullable")]
    pub unschedulable: bool,
    #[serde(borrow, deserialize_with = "nullable")]
    pub taints: Vec<Taint<'a>>,
}

/// `v1.ContainerImage`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerImage<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub names: Vec<Str<'a>>,
    #[serde(deserialize_with = "nullable")]
    pub size_bytes: i64,
}

/// `v1.NodeStatus`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct NodeStatus<'a> {
    #[serde(deserialize_with = "nullable")]
    pub allocatable: ResourceList,
    #[serde(borrow, deserialize_with = "nullable")]
    pub images: Vec<ContainerImage<'a>>,
}

/// `v1.Node`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Node<'a> {
    #[serde(borrow, deserialize_with = "nullable")]
    pub metadata: ObjectMeta<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub spec: NodeSpec<'a>,
    #[serde(borrow, deserialize_with = "nullable")]
    pub status: NodeStatus<'a>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(json: &str) -> Pod<'_> {
        match serde_json::from_str(json) {
            Ok(pod) => pod,
            Err(err) => panic!("{json}: {err}"),
        }
    }

    #[test]
    fn null_reads_as_the_zero_value_and_unknown_fields_are_skipped() {
        let p = pod(
            r#"{"metadata":{"name":"n","labels":null,"annotations":null,"managedFields":[{}]},
                "spec":{"containers":null,"nodeSelector":null,"overhead":null,"priority":null,
                        "hostPID":true,"tolerations":[{"key":null}],"affinity":null},
                "status":{"phase":"Running"}}"#,
        );
        assert_eq!(p.metadata.name, "n");
        assert!(p
            .metadata
            .labels
            .get()
            .map(|l| l.is_empty())
            .unwrap_or(false));
        assert!(p.spec.containers.is_empty());
        assert!(p.spec.overhead.is_none());
        assert_eq!(p.spec.priority, None);
        assert!(p.spec.host_pid);
        assert_eq!(p.spec.tolerations.get().map(|t| t.len()).ok(), Some(1));
        assert!(p.spec.affinity.get().is_ok_and(|a| a.is_none()));
        let empty = pod(r#"{"metadata":null,"spec":null}"#);
        assert!(empty.metadata.name.is_empty());
    }

    #[test]
    fn strings_are_borrowed_unless_escaped() {
        let p = pod(r#"{"metadata":{"name":"web","namespace":"a\u0062c"}}"#);
        assert!(matches!(p.metadata.name.0, Cow::Borrowed("web")));
        assert!(matches!(p.metadata.namespace.0, Cow::Owned(ref s) if s == "abc"));
    }

    #[test]
    fn labels_are_read_when_asked() {
        let p = pod(r#"{"metadata":{"labels":{"app":"web","tier":"a\u0062"}}}"#);
        let labels = p.metadata.labels.get().unwrap_or_default();
        let pairs: Vec<(&str, &str)> = labels
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(pairs, [("app", "web"), ("tier", "ab")]);
        assert!(pod("{}").metadata.labels.get().is_ok_and(|l| l.is_empty()));
        // A malformed value fails when read, not when the object is.
        let bad = pod(r#"{"metadata":{"name":"x","labels":{"app":1}}}"#);
        assert_eq!(bad.metadata.name, "x");
        assert!(bad.metadata.labels.get().is_err());
    }

    #[test]
    fn ports_and_images_are_read_when_asked() {
        let p = pod(
            r#"{"spec":{"containers":[{"image":"nginx","ports":[{"containerPort":80},{"hostPort":53,"protocol":"UDP","hostIP":"10.0.0.1"}]},
                {"ports":null}]}}"#,
        );
        let (Some(first), Some(second)) = (p.spec.containers.first(), p.spec.containers.get(1))
        else {
            panic!("two containers")
        };
        assert_eq!(first.image.get().ok().as_deref(), Some("nginx"));
        let ports = first.ports.get().unwrap_or_default();
        let read: Vec<(i32, &str, &str)> = ports
            .iter()
            .map(|p| (p.host_port, p.protocol.as_str(), p.host_ip.as_str()))
            .collect();
        assert_eq!(read, [(0, "", ""), (53, "UDP", "10.0.0.1")]);
        assert!(second.ports.get().is_ok_and(|p| p.is_empty()));
        let bad = pod(r#"{"spec":{"containers":[{"ports":"x"}]}}"#);
        assert!(bad
            .spec
            .containers
            .first()
            .is_some_and(|c| c.ports.get().is_err()));
    }

    #[test]
    fn only_the_annotations_read_are_kept() {
        let p = pod(
            r#"{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{…}",
                "kubernetes.io/config.mirror":7,"kubernetes.io/config.source":"file"}}}"#,
        );
        assert_eq!(
            p.metadata.annotations,
            Annotations {
                config_mirror: true,
                config_source: Some("file".into()),
            }
        );
        let none = pod(r#"{"metadata":{"annotations":{"kubernetes.io/config.source":null}}}"#);
        assert_eq!(none.metadata.annotations, Annotations::default());
        // As a map[string]string, the source must be a string.
        let bad = serde_json::from_str::<Pod>(
            r#"{"metadata":{"annotations":{"kubernetes.io/config.source":5}}}"#,
        );
        assert!(bad.is_err());
    }

    #[test]
    fn quantities_read_as_quantity_unmarshal_json_does() {
        let p = pod(
            r#"{"spec":{"containers":[{"resources":{"requests":{"cpu":0.5,"memory":" 1Gi ","x":null,"big":12345678901234}}}]}}"#,
        );
        let Some(c) = p.spec.containers.first() else {
            panic!("no container")
        };
        let Ok(list) = c.resources.requests.quantities() else {
            panic!("a bad quantity")
        };
        let text: Vec<String> = list.iter().map(|(k, q)| format!("{k}={q}")).collect();
        assert_eq!(
            text,
            ["big=12345678901234", "cpu=500m", "memory=1Gi", "x=0"]
        );
    }

    #[test]
    fn a_bad_quantity_fails_its_list_with_the_first_bad_name_in_order() {
        let list = |json: &str| -> ResourceList {
            match serde_json::from_str(json) {
                Ok(list) => list,
                Err(err) => panic!("{json}: {err}"),
            }
        };
        let bad = list(r#"{"memory":"worse","cpu":"bad","ab":"1"}"#);
        assert_eq!(bad.quantities().err().map(|b| b.name.as_str()), Some("cpu"));
        assert_eq!(
            bad.quantities().err().map(|b| b.error.code()),
            Some("E_QUANTITY_FORMAT")
        );
        // A repeated name keeps its last value, good or bad.
        assert!(list(r#"{"cpu":"bad","cpu":"1"}"#).quantities().is_ok());
        assert!(list(r#"{"cpu":"1","cpu":"bad"}"#).quantities().is_err());
        // Malformed JSON is still an error of the whole document.
        assert!(serde_json::from_str::<ResourceList>(r#"{"cpu":[1]}"#).is_err());
    }

    #[test]
    fn nodes_read_their_taints_allocatable_and_images() {
        let n: Node = match serde_json::from_str(
            r#"{"metadata":{"name":"n1"},"spec":{"unschedulable":true,"taints":[{"key":"k","effect":"NoSchedule"}]},
                "status":{"allocatable":{"cpu":"4","pods":"110"},"capacity":{"cpu":"8"},"images":[{"names":["a"],"sizeBytes":5}]}}"#,
        ) {
            Ok(n) => n,
            Err(err) => panic!("{err}"),
        };
        assert!(n.spec.unschedulable);
        assert_eq!(
            n.spec.taints.first().map(|t| t.effect.as_str()),
            Some("NoSchedule")
        );
        assert_eq!(n.status.allocatable.quantities().map(|l| l.len()), Ok(2));
        assert_eq!(n.status.images.first().map(|i| i.size_bytes), Some(5));
    }
}

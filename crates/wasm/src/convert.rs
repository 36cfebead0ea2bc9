//! JSON ⇄ `kubewasm-cgroup` for the cgroup entry points: Kubernetes v1 Pod objects and a node
//! config in, `NodeCgroups` out. Conversion only; the math lives in `kubewasm-cgroup`.
//!
//! Pods are read as the API server writes them, so unknown fields (status, managedFields, …) are
//! skipped and `null` reads as the zero value, as Go's decoder does. The node config is ours and
//! strict: an unknown field is a typo, `E_BAD_JSON`.

use std::collections::BTreeMap;
use std::fmt;

use kubewasm_cgroup::{
    node_cgroups, CgroupDriver, CgroupError, CgroupFiles, Container, ContainerCgroups,
    ContainerRestartPolicy, MemoryQosPolicy, NodeConfig, OciFragment, PodCgroups, PodNamespaces,
    PodSpec, Quantity, ResourceConfig, ResourceList, Resources, TierCgroup, WeightFormula,
};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::error::{BindingError, Coded};

/// `ConfigMirrorAnnotationKey` — pkg/kubelet/types/pod_update.go.
const CONFIG_MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";
/// `ConfigSourceAnnotationKey` — pkg/kubelet/types/pod_update.go.
const CONFIG_SOURCE_ANNOTATION: &str = "kubernetes.io/config.source";
/// `ApiserverSource` — pkg/kubelet/types/pod_update.go: the one source that is not static.
const APISERVER_SOURCE: &str = "api";

// ---------------------------------------------------------------------------------------------
// Input: v1 Pods.

/// `null` reads as the zero value, like Go's `encoding/json`.
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PodJson {
    #[serde(deserialize_with = "nullable")]
    metadata: MetadataJson,
    #[serde(deserialize_with = "nullable")]
    spec: SpecJson,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct MetadataJson {
    #[serde(deserialize_with = "nullable")]
    uid: String,
    #[serde(deserialize_with = "nullable")]
    name: String,
    #[serde(deserialize_with = "nullable")]
    namespace: String,
    annotations: Annotations,
}

/// The two annotations that make a pod static or mirror; the others are skipped unread.
#[derive(Default)]
struct Annotations {
    mirror: bool,
    source: Option<String>,
}

impl Annotations {
    /// kubelet `IsStaticPod(pod) || IsMirrorPod(pod)` (pkg/kubelet/types/pod_update.go): a
    /// config source other than the API server, or a mirror annotation.
    fn static_or_mirror(&self) -> bool {
        self.mirror
            || self
                .source
                .as_deref()
                .is_some_and(|s| s != APISERVER_SOURCE)
    }
}

impl<'de> Deserialize<'de> for Annotations {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct AnnotationsVisitor;
        impl<'de> Visitor<'de> for AnnotationsVisitor {
            type Value = Annotations;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of annotations")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Annotations, E> {
                Ok(Annotations::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Annotations, A::Error> {
                let mut found = Annotations::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key == CONFIG_MIRROR_ANNOTATION {
                        map.next_value::<IgnoredAny>()?;
                        found.mirror = true;
                    } else if key == CONFIG_SOURCE_ANNOTATION {
                        found.source = map.next_value::<Option<String>>()?;
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

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct SpecJson {
    #[serde(deserialize_with = "nullable")]
    containers: Vec<ContainerJson>,
    #[serde(deserialize_with = "nullable")]
    init_containers: Vec<ContainerJson>,
    #[serde(deserialize_with = "nullable")]
    overhead: BTreeMap<String, QuantityText>,
    priority: Option<i32>,
    #[serde(deserialize_with = "nullable")]
    priority_class_name: String,
    #[serde(deserialize_with = "nullable")]
    host_network: bool,
    #[serde(rename = "hostPID", deserialize_with = "nullable")]
    host_pid: bool,
    #[serde(rename = "hostIPC", deserialize_with = "nullable")]
    host_ipc: bool,
    #[serde(deserialize_with = "nullable")]
    share_process_namespace: bool,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ContainerJson {
    #[serde(deserialize_with = "nullable")]
    name: String,
    #[serde(deserialize_with = "nullable")]
    resources: ResourcesJson,
    restart_policy: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ResourcesJson {
    #[serde(deserialize_with = "nullable")]
    requests: BTreeMap<String, QuantityText>,
    #[serde(deserialize_with = "nullable")]
    limits: BTreeMap<String, QuantityText>,
}

/// A quantity's text, parsed later so that a bad one fails its own pod, not the batch. Like
/// `Quantity.UnmarshalJSON`: a string (trimmed), a bare number, or `null` for zero.
struct QuantityText(String);

impl<'de> Deserialize<'de> for QuantityText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct QuantityVisitor;
        impl Visitor<'_> for QuantityVisitor {
            type Value = QuantityText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a quantity string or number")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<QuantityText, E> {
                Ok(QuantityText(v.trim().to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<QuantityText, E> {
                Ok(QuantityText(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<QuantityText, E> {
                Ok(QuantityText(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<QuantityText, E> {
                Ok(QuantityText(v.to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<QuantityText, E> {
                Ok(QuantityText("0".to_string()))
            }
        }
        d.deserialize_any(QuantityVisitor)
    }
}

/// One input pod: who it is, and its spec or why it has none.
pub(crate) struct PodInput {
    pub uid: String,
    pub name: String,
    pub namespace: String,
    pub spec: Result<PodSpec, CgroupError>,
}

/// Parses a JSON array of v1 Pods. Malformed JSON fails the call; a bad quantity fails its pod.
pub(crate) fn pods_from_json(json: &str) -> Result<Vec<PodInput>, BindingError> {
    let pods: Vec<PodJson> = serde_json::from_str(json).map_err(BindingError::bad_json)?;
    Ok(pods.into_iter().map(pod_input).collect())
}

fn pod_input(pod: PodJson) -> PodInput {
    let PodJson { metadata, spec } = pod;
    let static_or_mirror = metadata.annotations.static_or_mirror();
    let uid = metadata.uid;
    let spec = pod_spec(uid.clone(), spec, static_or_mirror);
    PodInput {
        uid,
        name: metadata.name,
        namespace: metadata.namespace,
        spec,
    }
}

fn pod_spec(uid: String, spec: SpecJson, static_or_mirror: bool) -> Result<PodSpec, CgroupError> {
    let containers = |list: Vec<ContainerJson>| -> Result<Vec<Container>, CgroupError> {
        list.into_iter().map(container).collect()
    };
    Ok(PodSpec {
        uid,
        containers: containers(spec.containers)?,
        init_containers: containers(spec.init_containers)?,
        overhead: resource_list(spec.overhead)?,
        priority: spec.priority,
        priority_class_name: spec.priority_class_name,
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

fn container(c: ContainerJson) -> Result<Container, CgroupError> {
    // Go compares the string: anything but "Always" is not restartable.
    let restart_policy = match c.restart_policy.as_deref() {
        Some("Always") => Some(ContainerRestartPolicy::Always),
        Some("OnFailure") => Some(ContainerRestartPolicy::OnFailure),
        Some("Never") => Some(ContainerRestartPolicy::Never),
        _ => None,
    };
    Ok(Container {
        name: c.name,
        resources: Resources {
            requests: resource_list(c.resources.requests)?,
            limits: resource_list(c.resources.limits)?,
        },
        restart_policy,
    })
}

fn resource_list(list: BTreeMap<String, QuantityText>) -> Result<ResourceList, CgroupError> {
    list.into_iter()
        .map(|(name, QuantityText(text))| Ok((name, Quantity::parse(&text)?)))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Input: the node config.

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct NodeConfigJson {
    memory_capacity: i64,
    allocatable_memory: Option<i64>,
    cpu_cfs_quota: Option<bool>,
    cpu_cfs_quota_period_us: Option<u64>,
    enforce_memory_qos: Option<bool>,
    memory_qos_policy: Option<PolicyJson>,
    /// Absent: the default 0.9; `null`: none (Kubernetes 1.37).
    #[serde(default, deserialize_with = "present")]
    memory_throttling_factor: Option<Option<f64>>,
    page_size: Option<i64>,
    cgroup_driver: Option<DriverJson>,
    cgroup_v2: Option<bool>,
    single_process_oom_kill: Option<bool>,
    weight_formula: Option<FormulaJson>,
    apply_api_defaults: Option<bool>,
}

/// Tells a field given as `null` from a missing one.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum PolicyJson {
    Legacy,
    NoReservation,
    TieredReservation,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum DriverJson {
    Systemd,
    Cgroupfs,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum FormulaJson {
    Linear,
    LogQuadratic,
}

/// Parses the node config; fields left out take `NodeConfig::default()`, and allocatable memory
/// defaults to the capacity (no reservations).
pub(crate) fn node_from_json(json: &str) -> Result<NodeConfig, BindingError> {
    let n: NodeConfigJson = serde_json::from_str(json).map_err(BindingError::bad_json)?;
    let d = NodeConfig::default();
    Ok(NodeConfig {
        memory_capacity: n.memory_capacity,
        allocatable_memory: n.allocatable_memory.unwrap_or(n.memory_capacity),
        cpu_cfs_quota: n.cpu_cfs_quota.unwrap_or(d.cpu_cfs_quota),
        cpu_cfs_quota_period_us: n
            .cpu_cfs_quota_period_us
            .unwrap_or(d.cpu_cfs_quota_period_us),
        enforce_memory_qos: n.enforce_memory_qos.unwrap_or(d.enforce_memory_qos),
        memory_qos_policy: match n.memory_qos_policy {
            None => d.memory_qos_policy,
            Some(PolicyJson::Legacy) => MemoryQosPolicy::Legacy,
            Some(PolicyJson::NoReservation) => MemoryQosPolicy::NoReservation,
            Some(PolicyJson::TieredReservation) => MemoryQosPolicy::TieredReservation,
        },
        memory_throttling_factor: n
            .memory_throttling_factor
            .unwrap_or(d.memory_throttling_factor),
        page_size: n.page_size.unwrap_or(d.page_size),
        cgroup_driver: match n.cgroup_driver {
            None => d.cgroup_driver,
            Some(DriverJson::Systemd) => CgroupDriver::Systemd,
            Some(DriverJson::Cgroupfs) => CgroupDriver::Cgroupfs,
        },
        cgroup_v2: n.cgroup_v2.unwrap_or(d.cgroup_v2),
        single_process_oom_kill: n
            .single_process_oom_kill
            .unwrap_or(d.single_process_oom_kill),
        weight_formula: match n.weight_formula {
            None => d.weight_formula,
            Some(FormulaJson::Linear) => WeightFormula::Linear,
            Some(FormulaJson::LogQuadratic) => WeightFormula::LogQuadratic,
        },
        apply_api_defaults: n.apply_api_defaults.unwrap_or(d.apply_api_defaults),
    })
}

// ---------------------------------------------------------------------------------------------
// The batch: pods that failed conversion get their error slot and stay out of the QoS tiers.

/// Why a batch fails as a whole: a bad node, or (never in practice) JSON output that fails.
pub(crate) enum BatchError {
    Node(CgroupError),
    Output(BindingError),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Node(err) => err.fmt(f),
            BatchError::Output(err) => err.fmt(f),
        }
    }
}

impl Coded for BatchError {
    fn code(&self) -> &'static str {
        match self {
            BatchError::Node(err) => err.code(),
            BatchError::Output(err) => err.code,
        }
    }
}

/// `node_cgroups` over the pods whose specs converted, as JSON; fails only for a bad node.
pub(crate) fn node_cgroups_json(
    pods: Vec<PodInput>,
    node: &NodeConfig,
) -> Result<String, BatchError> {
    let mut specs = Vec::with_capacity(pods.len());
    let mut slots = Vec::with_capacity(pods.len());
    for pod in pods {
        match pod.spec {
            Ok(spec) => {
                specs.push(spec);
                slots.push((pod.uid, pod.name, pod.namespace, None));
            }
            Err(err) => slots.push((pod.uid, pod.name, pod.namespace, Some(err))),
        }
    }
    let computed = node_cgroups(&specs, node).map_err(BatchError::Node)?;
    let mut results = computed.pods.iter();
    let mut out = Vec::with_capacity(slots.len());
    for (uid, name, namespace, failed) in &slots {
        let result = match failed {
            Some(err) => Err(err),
            None => match results.next() {
                Some(Ok(pod)) => Ok(pod),
                Some(Err(err)) => Err(err),
                // node_cgroups answers once per spec; an empty slot cannot happen.
                None => continue,
            },
        };
        out.push(match result {
            Ok(pod) => PodSlotOut::Ok(PodOut::new(pod, name, namespace)),
            Err(err) => PodSlotOut::Err(PodErrorOut {
                uid,
                name,
                namespace,
                error: ErrorOut {
                    code: err.code(),
                    message: err.to_string(),
                },
            }),
        });
    }
    let body = NodeCgroupsOut {
        pods: out,
        kubepods: TierOut::new(&computed.kubepods),
        burstable: TierOut::new(&computed.burstable),
        besteffort: TierOut::new(&computed.besteffort),
    };
    serde_json::to_string(&body).map_err(|err| BatchError::Output(BindingError::bad_json(err)))
}

// ---------------------------------------------------------------------------------------------
// Output mirrors: borrowed views of the core's results, camelCase as the TS types name them.

#[derive(Serialize)]
struct NodeCgroupsOut<'a> {
    pods: Vec<PodSlotOut<'a>>,
    kubepods: TierOut<'a>,
    burstable: TierOut<'a>,
    besteffort: TierOut<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum PodSlotOut<'a> {
    Ok(PodOut<'a>),
    Err(PodErrorOut<'a>),
}

#[derive(Serialize)]
struct PodErrorOut<'a> {
    uid: &'a str,
    name: &'a str,
    namespace: &'a str,
    error: ErrorOut,
}

#[derive(Serialize)]
struct ErrorOut {
    code: &'static str,
    message: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PodOut<'a> {
    uid: &'a str,
    name: &'a str,
    namespace: &'a str,
    qos_class: &'static str,
    requests: Quantities<'a>,
    limits: Quantities<'a>,
    scheduler: SchedulerOut,
    cgroup_name: &'a [String],
    cgroup_path: &'a str,
    config: ConfigOut<'a>,
    files: FilesOut<'a>,
    containers: Vec<ContainerOut<'a>>,
}

impl<'a> PodOut<'a> {
    fn new(pod: &'a PodCgroups, name: &'a str, namespace: &'a str) -> Self {
        PodOut {
            uid: &pod.uid,
            name,
            namespace,
            qos_class: pod.qos.as_str(),
            requests: Quantities(&pod.requests),
            limits: Quantities(&pod.limits),
            scheduler: SchedulerOut {
                milli_cpu: pod.scheduler.milli_cpu,
                memory: pod.scheduler.memory,
                non_zero_milli_cpu: pod.scheduler.non_zero_milli_cpu,
                non_zero_memory: pod.scheduler.non_zero_memory,
            },
            cgroup_name: pod.cgroup_name.parts(),
            cgroup_path: &pod.cgroup_path,
            config: ConfigOut(&pod.config),
            files: FilesOut(&pod.files),
            containers: pod.containers.iter().map(ContainerOut::new).collect(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SchedulerOut {
    milli_cpu: i64,
    memory: i64,
    non_zero_milli_cpu: i64,
    non_zero_memory: i64,
}

/// A resource list as `{name: String()}`, Kubernetes' text form of each quantity.
struct Quantities<'a>(&'a ResourceList);

impl Serialize for Quantities<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, quantity) in self.0 {
            map.serialize_entry(name, &Text(quantity))?;
        }
        map.end()
    }
}

/// Anything `Display` as a JSON string, without an intermediate `String`.
struct Text<'a, T: fmt::Display>(&'a T);

impl<T: fmt::Display> Serialize for Text<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// `ResourceConfig`: unset controls are left out.
struct ConfigOut<'a>(&'a ResourceConfig);

impl Serialize for ConfigOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let mut map = s.serialize_map(None)?;
        if let Some(v) = c.cpu_shares {
            map.serialize_entry("cpuShares", &v)?;
        }
        if let Some(v) = c.cpu_quota {
            map.serialize_entry("cpuQuota", &v)?;
        }
        if let Some(v) = c.cpu_period {
            map.serialize_entry("cpuPeriod", &v)?;
        }
        if let Some(v) = c.memory {
            map.serialize_entry("memory", &v)?;
        }
        map.serialize_entry("hugepageLimits", &c.hugepage_limits)?;
        map.serialize_entry("unified", &c.unified)?;
        map.end()
    }
}

/// `CgroupFiles` as `{file name: content}`, only the files that are written.
struct FilesOut<'a>(&'a CgroupFiles);

impl Serialize for FilesOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        let mut map = s.serialize_map(None)?;
        if let Some(v) = &f.cpu_weight {
            map.serialize_entry("cpu.weight", &Text(v))?;
        }
        let texts = [
            ("cpu.max", &f.cpu_max),
            ("memory.max", &f.memory_max),
            ("memory.min", &f.memory_min),
            ("memory.low", &f.memory_low),
            ("memory.high", &f.memory_high),
        ];
        for (file, value) in texts {
            if let Some(v) = value {
                map.serialize_entry(file, v)?;
            }
        }
        map.end()
    }
}

#[derive(Serialize)]
struct TierOut<'a> {
    path: &'a str,
    config: ConfigOut<'a>,
    files: FilesOut<'a>,
}

impl<'a> TierOut<'a> {
    fn new(t: &'a TierCgroup) -> Self {
        TierOut {
            path: &t.path,
            config: ConfigOut(&t.config),
            files: FilesOut(&t.files),
        }
    }
}

#[derive(Serialize)]
struct ContainerOut<'a> {
    name: &'a str,
    init: bool,
    sidecar: bool,
    resources: CriOut<'a>,
    oci: OciOut<'a>,
    files: FilesOut<'a>,
}

impl<'a> ContainerOut<'a> {
    fn new(c: &'a ContainerCgroups) -> Self {
        let r = &c.resources;
        ContainerOut {
            name: &c.name,
            init: c.init,
            sidecar: c.sidecar,
            resources: CriOut {
                cpu_period: r.cpu_period,
                cpu_quota: r.cpu_quota,
                cpu_shares: r.cpu_shares,
                memory_limit_in_bytes: r.memory_limit_in_bytes,
                oom_score_adj: r.oom_score_adj,
                unified: &r.unified,
            },
            oci: OciOut::new(&c.oci),
            files: FilesOut(&c.files),
        }
    }
}

/// CRI `LinuxContainerResources`, with the proto JSON names.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CriOut<'a> {
    cpu_period: i64,
    cpu_quota: i64,
    cpu_shares: i64,
    memory_limit_in_bytes: i64,
    oom_score_adj: i64,
    unified: &'a BTreeMap<String, String>,
}

/// The runtime-spec fragment, the same object as `OciFragment::to_json`.
#[derive(Serialize)]
struct OciOut<'a> {
    process: OciProcess,
    linux: OciLinux<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OciProcess {
    oom_score_adj: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OciLinux<'a> {
    cgroups_path: &'a str,
    namespaces: Vec<OciNamespace<'a>>,
    resources: OciResources<'a>,
}

#[derive(Serialize)]
struct OciNamespace<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
}

#[derive(Serialize)]
struct OciResources<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    cpu: Option<OciCpu>,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory: Option<OciMemory>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    unified: &'a BTreeMap<String, String>,
}

#[derive(Serialize)]
struct OciCpu {
    #[serde(skip_serializing_if = "Option::is_none")]
    shares: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    quota: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<u64>,
}

#[derive(Serialize)]
struct OciMemory {
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    swap: Option<i64>,
}

impl<'a> OciOut<'a> {
    fn new(o: &'a OciFragment) -> Self {
        let has_cpu = o.cpu_shares.is_some() || o.cpu_quota.is_some() || o.cpu_period.is_some();
        let has_memory = o.memory_limit.is_some() || o.memory_swap.is_some();
        OciOut {
            process: OciProcess {
                oom_score_adj: o.oom_score_adj,
            },
            linux: OciLinux {
                cgroups_path: &o.cgroups_path,
                namespaces: o
                    .namespaces
                    .iter()
                    .map(|ns| OciNamespace {
                        kind: ns.kind.as_str(),
                        path: ns.path.as_deref(),
                    })
                    .collect(),
                resources: OciResources {
                    cpu: has_cpu.then_some(OciCpu {
                        shares: o.cpu_shares,
                        quota: o.cpu_quota,
                        period: o.cpu_period,
                    }),
                    memory: has_memory.then_some(OciMemory {
                        limit: o.memory_limit,
                        swap: o.memory_swap,
                    }),
                    unified: &o.unified,
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok<T>(result: Result<T, BindingError>) -> T {
        match result {
            Ok(value) => value,
            Err(err) => panic!("{}: {}", err.code, err.message),
        }
    }

    const NODE: &str = r#"{"memoryCapacity":17179869184}"#;

    fn run(pods: &str, node: &str) -> serde_json::Value {
        let pods = ok(pods_from_json(pods));
        let node = ok(node_from_json(node));
        match node_cgroups_json(pods, &node) {
            Ok(json) => serde_json::from_str(&json).unwrap(),
            Err(err) => panic!("{}: {err}", err.code()),
        }
    }

    #[test]
    fn oci_object_is_the_core_fragment_json() {
        // The mirror structs must say what OciFragment::to_json says, for every shape.
        let pods = r#"[{"metadata":{"uid":"u1"},"spec":{"containers":[
            {"name":"a","resources":{"requests":{"cpu":"250m","memory":"1Gi"},"limits":{"cpu":"1","memory":"2Gi"}}},
            {"name":"b"}],"hostPID":true}}]"#;
        for node in [
            NODE,
            r#"{"memoryCapacity":17179869184,"cgroupDriver":"cgroupfs","cgroupV2":false,"cpuCfsQuota":false}"#,
            r#"{"memoryCapacity":17179869184,"enforceMemoryQos":true}"#,
        ] {
            let parsed = ok(pods_from_json(pods));
            let spec = parsed.into_iter().next().unwrap().spec.unwrap();
            let config = ok(node_from_json(node));
            let core = kubewasm_cgroup::pod_cgroups(&spec, &config).unwrap();
            let got = run(pods, node);
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
        assert!(pods_from_json("[{").is_err());
        assert!(pods_from_json(r#"{"spec":{}}"#).is_err());
        assert!(node_from_json("{}").is_err());
        assert!(node_from_json(r#"{"memoryCapacity":1,"memoryCapasity":2}"#).is_err());
        let node = ok(node_from_json(
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

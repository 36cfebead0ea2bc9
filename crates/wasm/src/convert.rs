//! JSON ⇄ `kubewasm-cgroup` for the cgroup entry points: Kubernetes v1 Pod objects and a node
//! config in, `NodeCgroups` out. Conversion only; the math lives in `kubewasm-cgroup`.
//!
//! Pods are read as the API server writes them, so unknown fields (status, managedFields, …) are
//! skipped and `null` reads as the zero value, as Go's decoder does. The node config is ours and
//! strict: an unknown field is a typo, `E_BAD_JSON`.

use std::collections::BTreeMap;
use std::fmt;

use kubewasm_cgroup::{
    CgroupDriver, CgroupError, CgroupFiles, Container, ContainerCgroups, ContainerRestartPolicy,
    MemoryQosPolicy, NodeBatch, NodeConfig, NodeTiers, OciFragment, PodCgroups, PodNamespaces,
    PodSpec, Quantity, ResourceConfig, ResourceList, Resources, TierCgroup, WeightFormula,
};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;

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
    /// `kubernetes.io/config.source` is set and is not the API server.
    source_not_api: Option<bool>,
}

impl Annotations {
    /// kubelet `IsStaticPod(pod) || IsMirrorPod(pod)` (pkg/kubelet/types/pod_update.go): a
    /// config source other than the API server, or a mirror annotation.
    fn static_or_mirror(&self) -> bool {
        self.mirror || self.source_not_api == Some(true)
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
                        found.source_not_api =
                            map.next_value::<Option<Text<NotApi>>>()?.map(|Text(v)| v.0);
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
    overhead: ListJson,
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
    restart_policy: Option<Text<RestartPolicyJson>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ResourcesJson {
    #[serde(deserialize_with = "nullable")]
    requests: ListJson,
    #[serde(deserialize_with = "nullable")]
    limits: ListJson,
}

/// A resource list, parsed as it is read; a bad quantity fails its own pod, not the batch. As
/// a `map[string]Quantity` decodes: a repeated name keeps its last value; the error reported is
/// that of the first bad name in order.
struct ListJson(Result<ResourceList, CgroupError>);

impl Default for ListJson {
    fn default() -> Self {
        ListJson(Ok(ResourceList::new()))
    }
}

impl<'de> Deserialize<'de> for ListJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ListVisitor;
        impl<'de> Visitor<'de> for ListVisitor {
            type Value = ListJson;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ListJson, A::Error> {
                let mut list = ResourceList::new();
                let mut errors: BTreeMap<String, CgroupError> = BTreeMap::new();
                while let Some(name) = map.next_key::<String>()? {
                    let ParsedQuantity(parsed) = map.next_value()?;
                    match parsed {
                        Ok(quantity) => {
                            if !errors.is_empty() {
                                errors.remove(&name);
                            }
                            list.insert(name, quantity);
                        }
                        Err(err) => {
                            list.remove(&name);
                            errors.insert(name, err);
                        }
                    }
                }
                Ok(ListJson(match errors.into_values().next() {
                    Some(err) => Err(err),
                    None => Ok(list),
                }))
            }
        }
        d.deserialize_map(ListVisitor)
    }
}

/// A quantity parsed from what `Quantity.UnmarshalJSON` accepts: a string (trimmed), a bare
/// number, or `null` for zero.
struct ParsedQuantity(Result<Quantity, CgroupError>);

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

/// What a JSON string field means to us, read without keeping the text.
trait FromText: Sized {
    fn from_text(text: &str) -> Self;
}

/// A JSON string read through [`FromText`] (the same errors as reading a `String`).
struct Text<T>(T);

impl<'de, T: FromText> Deserialize<'de> for Text<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct TextVisitor<T>(std::marker::PhantomData<T>);
        impl<T: FromText> Visitor<'_> for TextVisitor<T> {
            type Value = Text<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<T>, E> {
                Ok(Text(T::from_text(v)))
            }
        }
        d.deserialize_str(TextVisitor(std::marker::PhantomData))
    }
}

/// `kubernetes.io/config.source` other than the API server.
struct NotApi(bool);

impl FromText for NotApi {
    fn from_text(text: &str) -> Self {
        NotApi(text != APISERVER_SOURCE)
    }
}

/// A container's `restartPolicy`. Go compares the string: anything but "Always" is not
/// restartable.
struct RestartPolicyJson(Option<ContainerRestartPolicy>);

impl FromText for RestartPolicyJson {
    fn from_text(text: &str) -> Self {
        RestartPolicyJson(match text {
            "Always" => Some(ContainerRestartPolicy::Always),
            "OnFailure" => Some(ContainerRestartPolicy::OnFailure),
            "Never" => Some(ContainerRestartPolicy::Never),
            _ => None,
        })
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
        overhead: spec.overhead.0?,
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
    let restart_policy = c.restart_policy.and_then(|Text(policy)| policy.0);
    Ok(Container {
        name: c.name,
        resources: Resources {
            requests: c.resources.requests.0?,
            limits: c.resources.limits.0?,
        },
        restart_policy,
    })
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

/// Why a batch fails as a whole: malformed pods JSON, or a bad node.
pub(crate) enum BatchError {
    Input(BindingError),
    Node(CgroupError),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Input(err) => err.fmt(f),
            BatchError::Node(err) => err.fmt(f),
        }
    }
}

impl Coded for BatchError {
    fn code(&self) -> &'static str {
        match self {
            BatchError::Input(err) => err.code,
            BatchError::Node(err) => err.code(),
        }
    }
}

/// The JSON text of a Pod array in, the `NodeCgroups` JSON out. Each pod is read, computed,
/// written and dropped before the next is read, so the batch never holds more than one pod's
/// values. Malformed JSON fails the call (before a bad node does, as when reading came first).
pub(crate) fn pod_cgroups_json(pods_json: &str, node: &NodeConfig) -> Result<String, BatchError> {
    let mut batch = match NodeBatch::new(node) {
        Ok(batch) => batch,
        Err(err) => {
            pods_from_json(pods_json).map_err(BatchError::Input)?;
            return Err(BatchError::Node(err));
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
    .map_err(|err| BatchError::Input(BindingError::bad_json(err)))?;
    Ok(out.finish(&batch.tiers().map_err(BatchError::Node)?))
}

/// JSON bytes as text: one UTF-8 check of the whole, cheaper than serde_json's per string.
pub(crate) fn json_text(bytes: &[u8]) -> Result<&str, BindingError> {
    std::str::from_utf8(bytes).map_err(|err| BindingError {
        code: "E_BAD_JSON",
        message: format!("the JSON is not UTF-8: {err}"),
    })
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
        while let Some(pod) = seq.next_element::<PodJson>()? {
            let pod = pod_input(pod);
            self.out.pod(&pod, |spec| self.batch.pod(spec));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Output: `NodeCgroups` as JSON, camelCase as the TS types name them, written by hand in the
// shape (and bytes) serde_json gave the derived mirror structs: fields in declaration order,
// unset controls left out, strings escaped as serde_json escapes them.

/// Writes `{"pods":[…],"kubepods":…,"burstable":…,"besteffort":…}`, one pod at a time.
struct NodeWriter {
    json: Json,
    pods: usize,
}

impl NodeWriter {
    fn new(capacity: usize) -> Self {
        let mut json = Json(String::with_capacity(capacity));
        json.raw("{\"pods\":[");
        NodeWriter { json, pods: 0 }
    }

    /// The slot of one input pod: its values, or the error of its conversion or computation.
    fn pod(
        &mut self,
        pod: &PodInput,
        compute: impl FnOnce(&PodSpec) -> Result<PodCgroups, CgroupError>,
    ) {
        if self.pods > 0 {
            self.json.raw(",");
        }
        self.pods += 1;
        match pod.spec.as_ref().map(compute) {
            Ok(Ok(values)) => self.json.pod(&values, &pod.name, &pod.namespace),
            Ok(Err(err)) => self.json.pod_error(pod, &err),
            Err(err) => self.json.pod_error(pod, err),
        }
    }

    fn finish(mut self, tiers: &NodeTiers) -> String {
        let j = &mut self.json;
        j.raw("],\"kubepods\":");
        j.tier(&tiers.kubepods);
        j.raw(",\"burstable\":");
        j.tier(&tiers.burstable);
        j.raw(",\"besteffort\":");
        j.tier(&tiers.besteffort);
        j.raw("}");
        self.json.0
    }
}

/// The first byte JSON needs escaped (a control character, `"` or `\\`), eight at a time.
fn first_to_escape(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    // A high bit per byte below `n` ("hasless" of Bit Twiddling Hacks); no false negatives.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let mut start = 0;
    for chunk in bytes.chunks_exact(8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        let hits = below(x, 0x20)
            | below(x ^ (ONES * u64::from(b'"')), 1)
            | below(x ^ (ONES * u64::from(b'\\')), 1);
        if hits != 0 {
            break;
        }
        start += 8;
    }
    let tail = bytes.get(start..)?;
    let at = tail
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')?;
    Some(start + at)
}

/// A JSON text under construction.
struct Json(String);

impl Json {
    fn raw(&mut self, text: &str) {
        self.0.push_str(text);
    }

    /// A string literal, escaped as serde_json does: `"`, `\`, and control characters
    /// (`\b \t \n \f \r`, else `\u00xx`).
    fn str(&mut self, text: &str) {
        self.0.push('"');
        let mut rest = text;
        while let Some(at) = first_to_escape(rest.as_bytes()) {
            let (clean, tail) = rest.split_at(at);
            self.0.push_str(clean);
            let mut chars = tail.chars();
            match chars.next() {
                Some('"') => self.0.push_str("\\\""),
                Some('\\') => self.0.push_str("\\\\"),
                Some('\u{8}') => self.0.push_str("\\b"),
                Some('\t') => self.0.push_str("\\t"),
                Some('\n') => self.0.push_str("\\n"),
                Some('\u{c}') => self.0.push_str("\\f"),
                Some('\r') => self.0.push_str("\\r"),
                Some(c) => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    let byte = c as u32 as usize;
                    self.0.push_str("\\u00");
                    for nibble in [byte >> 4, byte & 0xf] {
                        if let Some(&h) = HEX.get(nibble) {
                            self.0.push(char::from(h));
                        }
                    }
                }
                None => {}
            }
            rest = chars.as_str();
        }
        self.0.push_str(rest);
        self.0.push('"');
    }

    fn uint(&mut self, mut value: u64) {
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            if let Some(d) = digits.get_mut(start) {
                *d = b'0' + (value % 10) as u8;
            }
            value /= 10;
            if value == 0 || start == 0 {
                break;
            }
        }
        let digits = digits.get(start..).unwrap_or_default();
        self.0
            .push_str(std::str::from_utf8(digits).unwrap_or_default());
    }

    fn int(&mut self, value: i64) {
        if value < 0 {
            self.0.push('-');
        }
        self.uint(value.unsigned_abs());
    }

    /// `,"name":` or `"name":` (names are ours and need no escaping).
    fn key(&mut self, first: &mut bool, name: &str) {
        if !*first {
            self.0.push(',');
        }
        *first = false;
        self.0.push('"');
        self.0.push_str(name);
        self.0.push_str("\":");
    }

    fn pod(&mut self, pod: &PodCgroups, name: &str, namespace: &str) {
        self.raw("{\"uid\":");
        self.str(&pod.uid);
        self.raw(",\"name\":");
        self.str(name);
        self.raw(",\"namespace\":");
        self.str(namespace);
        self.raw(",\"qosClass\":\"");
        self.raw(pod.qos.as_str());
        self.raw("\",\"requests\":");
        self.quantities(&pod.requests);
        self.raw(",\"limits\":");
        self.quantities(&pod.limits);
        let s = &pod.scheduler;
        self.raw(",\"scheduler\":{\"milliCpu\":");
        self.int(s.milli_cpu);
        self.raw(",\"memory\":");
        self.int(s.memory);
        self.raw(",\"nonZeroMilliCpu\":");
        self.int(s.non_zero_milli_cpu);
        self.raw(",\"nonZeroMemory\":");
        self.int(s.non_zero_memory);
        self.raw("},\"cgroupName\":[");
        for (i, part) in pod.cgroup_name.parts().iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            self.str(part);
        }
        self.raw("],\"cgroupPath\":");
        self.str(&pod.cgroup_path);
        self.raw(",\"config\":");
        self.config(&pod.config);
        self.raw(",\"files\":");
        self.files(&pod.files);
        self.raw(",\"containers\":[");
        for (i, container) in pod.containers.iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            self.container(container);
        }
        self.raw("]}");
    }

    fn pod_error(&mut self, pod: &PodInput, err: &CgroupError) {
        self.raw("{\"uid\":");
        self.str(&pod.uid);
        self.raw(",\"name\":");
        self.str(&pod.name);
        self.raw(",\"namespace\":");
        self.str(&pod.namespace);
        self.raw(",\"error\":{\"code\":");
        self.str(err.code());
        self.raw(",\"message\":");
        self.str(&err.to_string());
        self.raw("}}");
    }

    /// A resource list as `{name: String()}`, Kubernetes' text form of each quantity.
    fn quantities(&mut self, list: &ResourceList) {
        self.raw("{");
        for (i, (name, quantity)) in list.iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            self.str(name);
            self.raw(":\"");
            // Quantity text is digits, sign, point and suffix letters: nothing to escape.
            let _ = fmt::Write::write_fmt(&mut self.0, format_args!("{quantity}"));
            self.raw("\"");
        }
        self.raw("}");
    }

    fn strings(&mut self, map: &BTreeMap<String, String>) {
        self.raw("{");
        for (i, (key, value)) in map.iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            self.str(key);
            self.raw(":");
            self.str(value);
        }
        self.raw("}");
    }

    /// `ResourceConfig`: unset controls are left out.
    fn config(&mut self, c: &ResourceConfig) {
        self.raw("{");
        let mut first = true;
        if let Some(v) = c.cpu_shares {
            self.key(&mut first, "cpuShares");
            self.uint(v);
        }
        if let Some(v) = c.cpu_quota {
            self.key(&mut first, "cpuQuota");
            self.int(v);
        }
        if let Some(v) = c.cpu_period {
            self.key(&mut first, "cpuPeriod");
            self.uint(v);
        }
        if let Some(v) = c.memory {
            self.key(&mut first, "memory");
            self.int(v);
        }
        self.key(&mut first, "hugepageLimits");
        self.raw("{");
        for (i, (page, limit)) in c.hugepage_limits.iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            self.raw("\"");
            self.int(*page);
            self.raw("\":");
            self.int(*limit);
        }
        self.raw("},\"unified\":");
        self.strings(&c.unified);
        self.raw("}");
    }

    /// `CgroupFiles` as `{file name: content}`, only the files that are written.
    fn files(&mut self, f: &CgroupFiles) {
        self.raw("{");
        let mut first = true;
        if let Some(v) = f.cpu_weight {
            self.key(&mut first, "cpu.weight");
            self.raw("\"");
            self.uint(v);
            self.raw("\"");
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
                self.key(&mut first, file);
                self.str(v);
            }
        }
        self.raw("}");
    }

    fn tier(&mut self, t: &TierCgroup) {
        self.raw("{\"path\":");
        self.str(&t.path);
        self.raw(",\"config\":");
        self.config(&t.config);
        self.raw(",\"files\":");
        self.files(&t.files);
        self.raw("}");
    }

    fn container(&mut self, c: &ContainerCgroups) {
        let r = &c.resources;
        self.raw("{\"name\":");
        self.str(&c.name);
        self.raw(if c.init {
            ",\"init\":true"
        } else {
            ",\"init\":false"
        });
        self.raw(if c.sidecar {
            ",\"sidecar\":true"
        } else {
            ",\"sidecar\":false"
        });
        // CRI `LinuxContainerResources`, with the proto JSON names.
        self.raw(",\"resources\":{\"cpuPeriod\":");
        self.int(r.cpu_period);
        self.raw(",\"cpuQuota\":");
        self.int(r.cpu_quota);
        self.raw(",\"cpuShares\":");
        self.int(r.cpu_shares);
        self.raw(",\"memoryLimitInBytes\":");
        self.int(r.memory_limit_in_bytes);
        self.raw(",\"oomScoreAdj\":");
        self.int(r.oom_score_adj);
        self.raw(",\"unified\":");
        self.strings(&r.unified);
        self.raw("},\"oci\":");
        self.oci(&c.oci);
        self.raw(",\"files\":");
        self.files(&c.files);
        self.raw("}");
    }

    /// The runtime-spec fragment, the same object as `OciFragment::to_json`.
    fn oci(&mut self, o: &OciFragment) {
        self.raw("{\"process\":{\"oomScoreAdj\":");
        self.int(o.oom_score_adj);
        self.raw("},\"linux\":{\"cgroupsPath\":");
        self.str(&o.cgroups_path);
        self.raw(",\"namespaces\":[");
        for (i, ns) in o.namespaces.iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            self.raw("{\"type\":\"");
            self.raw(ns.kind.as_str());
            self.raw("\"");
            if let Some(path) = &ns.path {
                self.raw(",\"path\":");
                self.str(path);
            }
            self.raw("}");
        }
        self.raw("],\"resources\":{");
        let mut first = true;
        if o.cpu_shares.is_some() || o.cpu_quota.is_some() || o.cpu_period.is_some() {
            self.key(&mut first, "cpu");
            self.raw("{");
            let mut inner = true;
            if let Some(v) = o.cpu_shares {
                self.key(&mut inner, "shares");
                self.uint(v);
            }
            if let Some(v) = o.cpu_quota {
                self.key(&mut inner, "quota");
                self.int(v);
            }
            if let Some(v) = o.cpu_period {
                self.key(&mut inner, "period");
                self.uint(v);
            }
            self.raw("}");
        }
        if o.memory_limit.is_some() || o.memory_swap.is_some() {
            self.key(&mut first, "memory");
            self.raw("{");
            let mut inner = true;
            if let Some(v) = o.memory_limit {
                self.key(&mut inner, "limit");
                self.int(v);
            }
            if let Some(v) = o.memory_swap {
                self.key(&mut inner, "swap");
                self.int(v);
            }
            self.raw("}");
        }
        if !o.unified.is_empty() {
            self.key(&mut first, "unified");
            self.strings(&o.unified);
        }
        self.raw("}}}");
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
        let node = ok(node_from_json(node));
        match pod_cgroups_json(pods, &node) {
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
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let long = "0123456789abcdef\"0123456789abcdef\\x\u{7f}é\u{1f}\u{8}\u{c}";
        for text in [
            "",
            "plain-ascii-longer-than-eight",
            "a\"b\\c\nd\re\tf\u{1}g\u{0}",
            "ünïcödé ✓ 字",
            long,
            &long[1..],
            &long[3..],
        ] {
            let mut json = Json(String::new());
            json.str(text);
            assert_eq!(json.0, serde_json::to_string(text).unwrap(), "{text:?}");
        }
        for value in [0, 7, -1, 10, 1_000_000, i64::MIN, i64::MAX] {
            let mut json = Json(String::new());
            json.int(value);
            assert_eq!(json.0, value.to_string());
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
        assert_eq!(
            json_text(b"[\xff]").err().map(|e| e.code),
            Some("E_BAD_JSON")
        );
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

#[cfg(test)]
mod timing {
    use super::*;

    /// `KUBEWASM_CGROUP_PODS=pods.json cargo test --release -p kubewasm-wasm timing -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn batch_timing() {
        let Ok(path) = std::env::var("KUBEWASM_CGROUP_PODS") else {
            return;
        };
        let json = std::fs::read_to_string(path).unwrap();
        let Ok(node) =
            node_from_json(r#"{"memoryCapacity":68719476736,"allocatableMemory":66571993088}"#)
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

//! `NodeCgroups` as JSON, camelCase as the TS types name them, written by hand in the shape (and
//! bytes) serde_json gave derived mirror structs: fields in declaration order, unset controls left
//! out, strings escaped as serde_json escapes them. One pod is written at a time, so a batch never
//! holds more than one pod's values.

use std::collections::BTreeMap;
use std::fmt;

use super::PodInput;
use crate::{
    CgroupError, CgroupFiles, ContainerCgroups, NodeTiers, OciFragment, PodCgroups, PodSpec,
    ResourceConfig, ResourceList, TierCgroup,
};

/// Writes `{"pods":[…],"kubepods":…,"burstable":…,"besteffort":…}`, one pod at a time.
pub(super) struct NodeWriter {
    json: Json,
    pods: usize,
}

impl NodeWriter {
    pub(super) fn new(capacity: usize) -> Self {
        let mut json = Json(String::with_capacity(capacity));
        json.raw("{\"pods\":[");
        NodeWriter { json, pods: 0 }
    }

    /// The slot of one input pod: its values, or the error of its conversion or computation.
    pub(super) fn pod(
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

    pub(super) fn finish(mut self, tiers: &NodeTiers) -> String {
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
}

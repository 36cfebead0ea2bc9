//! The OCI runtime-spec fragment a runtime generates for a container from the kubelet's CRI
//! resources: `linux.resources`, `process.oomScoreAdj`, `linux.namespaces`, `linux.cgroupsPath`.
//! Modelled on containerd `internal/cri/opts/spec_linux.go` (`WithResources`,
//! `WithPodNamespaces`) and opencontainers/runtime-spec `specs-go/config.go` field names.

use crate::cgroup_path::{CgroupDriver, CgroupName};
use crate::container::LinuxContainerResources;
use crate::cpu::{fs2_cpu_max, WeightFormula};
use crate::memory::{memory_max, CGROUP2_MEMORY_HIGH, CGROUP2_MEMORY_LOW, CGROUP2_MEMORY_MIN};
use crate::pod_cgroup::CgroupFiles;
use crate::pod_spec::PodNamespaces;
use crate::CgroupError;
use std::collections::BTreeMap;
use std::fmt::Write;

/// `runtime-spec` `LinuxNamespaceType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamespaceKind {
    Pid,
    Network,
    Mount,
    Ipc,
    Uts,
    Cgroup,
}

impl NamespaceKind {
    /// The spec's spelling: `"pid"`, `"network"`, ….
    pub fn as_str(self) -> &'static str {
        match self {
            NamespaceKind::Pid => "pid",
            NamespaceKind::Network => "network",
            NamespaceKind::Mount => "mount",
            NamespaceKind::Ipc => "ipc",
            NamespaceKind::Uts => "uts",
            NamespaceKind::Cgroup => "cgroup",
        }
    }

    /// The file under `/proc/<pid>/ns/`.
    fn proc_file(self) -> &'static str {
        match self {
            NamespaceKind::Network => "net",
            NamespaceKind::Mount => "mnt",
            other => other.as_str(),
        }
    }
}

/// `LinuxNamespace`: a new namespace (`path: None`) or one joined by path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Namespace {
    pub kind: NamespaceKind,
    pub path: Option<String>,
}

/// The container's namespaces as containerd 2.x `WithPodNamespaces` sets them
/// (internal/cri/opts/spec_opts.go): network, IPC and UTS join the sandbox's
/// `/proc/<sandboxPid>/ns/…` (with hostNetwork/hostIPC the sandbox sits in the host's, so the
/// container does too); PID is new unless the pod shares it or uses the host's, then it joins the
/// sandbox's; mount is always new; on cgroup v2 an unprivileged container gets a private cgroup
/// namespace (container_create.go). Order: containerd's `defaultUnixNamespaces` (pid, ipc, uts,
/// mount, network), then cgroup.
pub fn container_namespaces(
    pod: &PodNamespaces,
    sandbox_pid: u32,
    cgroup_v2: bool,
) -> Vec<Namespace> {
    let join = |kind: NamespaceKind| Namespace {
        kind,
        path: Some(format!("/proc/{sandbox_pid}/ns/{}", kind.proc_file())),
    };
    let new = |kind| Namespace { kind, path: None };
    let mut namespaces = vec![
        if pod.host_pid || pod.share_process_namespace {
            join(NamespaceKind::Pid)
        } else {
            new(NamespaceKind::Pid)
        },
        join(NamespaceKind::Ipc),
        join(NamespaceKind::Uts),
        new(NamespaceKind::Mount),
        join(NamespaceKind::Network),
    ];
    if cgroup_v2 {
        namespaces.push(new(NamespaceKind::Cgroup));
    }
    namespaces
}

/// What a container's `linux.cgroupsPath` starts with, the container id follows:
/// `<pod unit>:cri-containerd:` (systemd) or `<pod cgroup>/` (cgroupfs).
pub(crate) fn cgroups_path_prefix(pod_cgroup: &CgroupName, driver: CgroupDriver) -> String {
    match driver {
        CgroupDriver::Systemd => pod_cgroup.to_systemd_unit() + ":cri-containerd:",
        CgroupDriver::Cgroupfs => {
            let parent = pod_cgroup.to_cgroupfs();
            format!("{}/", parent.trim_end_matches('/'))
        }
    }
}

/// The runtime-spec fragment for one container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OciFragment {
    /// `process.oomScoreAdj`.
    pub oom_score_adj: i64,
    /// `linux.cgroupsPath`: `slice:cri-containerd:<id>` (systemd) or `<parent>/<id>` (cgroupfs).
    pub cgroups_path: String,
    /// `linux.resources.cpu.shares`.
    pub cpu_shares: Option<u64>,
    /// `linux.resources.cpu.quota`.
    pub cpu_quota: Option<i64>,
    /// `linux.resources.cpu.period`.
    pub cpu_period: Option<u64>,
    /// `linux.resources.memory.limit`.
    pub memory_limit: Option<i64>,
    /// `linux.resources.memory.swap` (memory+swap): equal to the limit, so no swap.
    pub memory_swap: Option<i64>,
    /// `linux.resources.unified`.
    pub unified: BTreeMap<String, String>,
    /// `linux.namespaces`.
    pub namespaces: Vec<Namespace>,
}

impl OciFragment {
    /// containerd's `WithResources` + `WithOOMScoreAdj`: zero CRI values are left unset.
    pub fn from_cri(
        resources: &LinuxContainerResources,
        namespaces: Vec<Namespace>,
        pod_cgroup: &CgroupName,
        container_id: &str,
        driver: CgroupDriver,
    ) -> Result<Self, CgroupError> {
        let prefix = cgroups_path_prefix(pod_cgroup, driver);
        Ok(Self::from_cri_under(
            resources,
            namespaces,
            &prefix,
            container_id,
        ))
    }

    /// [`OciFragment::from_cri`] with the pod's [`cgroups_path_prefix`] computed once.
    pub(crate) fn from_cri_under(
        resources: &LinuxContainerResources,
        namespaces: Vec<Namespace>,
        cgroups_path_prefix: &str,
        container_id: &str,
    ) -> Self {
        let mut cgroups_path =
            String::with_capacity(cgroups_path_prefix.len() + container_id.len());
        cgroups_path.push_str(cgroups_path_prefix);
        cgroups_path.push_str(container_id);
        let memory_limit =
            (resources.memory_limit_in_bytes != 0).then_some(resources.memory_limit_in_bytes);
        OciFragment {
            oom_score_adj: resources.oom_score_adj,
            cgroups_path,
            cpu_shares: u64::try_from(resources.cpu_shares).ok().filter(|s| *s != 0),
            cpu_quota: (resources.cpu_quota != 0).then_some(resources.cpu_quota),
            cpu_period: u64::try_from(resources.cpu_period).ok().filter(|p| *p != 0),
            memory_limit,
            memory_swap: memory_limit,
            unified: resources.unified.clone(),
            namespaces,
        }
    }

    /// The cgroup v2 files runc writes for this spec; `formula` picks the runc version's
    /// shares → weight conversion.
    pub fn cgroup_v2_files(&self, formula: WeightFormula) -> CgroupFiles {
        let quota = self.cpu_quota.unwrap_or(0);
        let period = self.cpu_period.unwrap_or(0);
        CgroupFiles {
            cpu_weight: self.cpu_shares.map(|s| formula.weight(s)),
            cpu_max: fs2_cpu_max(quota, period),
            memory_max: self.memory_limit.map(memory_max),
            memory_min: self.unified.get(CGROUP2_MEMORY_MIN).cloned(),
            memory_low: self.unified.get(CGROUP2_MEMORY_LOW).cloned(),
            memory_high: self.unified.get(CGROUP2_MEMORY_HIGH).cloned(),
        }
    }

    /// The fragment as runtime-spec JSON: `{"process":{…},"linux":{…}}`.
    pub fn to_json(&self) -> String {
        let mut cpu = Vec::new();
        if let Some(v) = self.cpu_shares {
            cpu.push(format!("\"shares\":{v}"));
        }
        if let Some(v) = self.cpu_quota {
            cpu.push(format!("\"quota\":{v}"));
        }
        if let Some(v) = self.cpu_period {
            cpu.push(format!("\"period\":{v}"));
        }
        let mut memory = Vec::new();
        if let Some(v) = self.memory_limit {
            memory.push(format!("\"limit\":{v}"));
        }
        if let Some(v) = self.memory_swap {
            memory.push(format!("\"swap\":{v}"));
        }
        let mut resources = Vec::new();
        if !cpu.is_empty() {
            resources.push(format!("\"cpu\":{{{}}}", cpu.join(",")));
        }
        if !memory.is_empty() {
            resources.push(format!("\"memory\":{{{}}}", memory.join(",")));
        }
        if !self.unified.is_empty() {
            let entries: Vec<String> = self
                .unified
                .iter()
                .map(|(k, v)| format!("{}:{}", json_string(k), json_string(v)))
                .collect();
            resources.push(format!("\"unified\":{{{}}}", entries.join(",")));
        }
        let namespaces: Vec<String> = self
            .namespaces
            .iter()
            .map(|ns| match &ns.path {
                Some(path) => format!(
                    "{{\"type\":\"{}\",\"path\":{}}}",
                    ns.kind.as_str(),
                    json_string(path)
                ),
                None => format!("{{\"type\":\"{}\"}}", ns.kind.as_str()),
            })
            .collect();
        format!(
            "{{\"process\":{{\"oomScoreAdj\":{}}},\"linux\":{{\"cgroupsPath\":{},\"namespaces\":[{}],\"resources\":{{{}}}}}}}",
            self.oom_score_adj,
            json_string(&self.cgroups_path),
            namespaces.join(","),
            resources.join(",")
        )
    }
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgroup_path::pod_cgroup_name;
    use crate::qos::QosClass;

    fn resources() -> LinuxContainerResources {
        let mut unified = BTreeMap::new();
        unified.insert("memory.oom.group".to_string(), "1".to_string());
        LinuxContainerResources {
            cpu_period: 100_000,
            cpu_quota: 50_000,
            cpu_shares: 256,
            memory_limit_in_bytes: 1 << 30,
            oom_score_adj: 938,
            unified,
        }
    }

    #[test]
    fn fragment_json() {
        let pod = pod_cgroup_name(QosClass::Burstable, "1234-abcd").unwrap();
        let ns = container_namespaces(&PodNamespaces::default(), 42, true);
        let fragment =
            OciFragment::from_cri(&resources(), ns, &pod, "app", CgroupDriver::Systemd).unwrap();
        assert_eq!(
            fragment.to_json(),
            concat!(
                r#"{"process":{"oomScoreAdj":938},"linux":{"cgroupsPath":"kubepods-burstable-pod1234_abcd.slice:cri-containerd:app","#,
                r#""namespaces":[{"type":"pid"},{"type":"ipc","path":"/proc/42/ns/ipc"},{"type":"uts","path":"/proc/42/ns/uts"},"#,
                r#"{"type":"mount"},{"type":"network","path":"/proc/42/ns/net"},{"type":"cgroup"}],"#,
                r#""resources":{"cpu":{"shares":256,"quota":50000,"period":100000},"memory":{"limit":1073741824,"swap":1073741824},"#,
                r#""unified":{"memory.oom.group":"1"}}}}"#
            )
        );
        let files = fragment.cgroup_v2_files(WeightFormula::LogQuadratic);
        assert_eq!(files.cpu_weight, Some(35));
        assert_eq!(
            fragment.cgroup_v2_files(WeightFormula::Linear).cpu_weight,
            Some(10)
        );
        assert_eq!(files.cpu_max.as_deref(), Some("50000 100000"));
        assert_eq!(files.memory_max.as_deref(), Some("1073741824"));
    }

    #[test]
    fn unset_values_and_namespace_modes() {
        let mut res = resources();
        res.cpu_quota = 0;
        res.memory_limit_in_bytes = 0;
        let pod = pod_cgroup_name(QosClass::BestEffort, "u1").unwrap();
        let shared = PodNamespaces {
            host_pid: false,
            share_process_namespace: true,
            ..PodNamespaces::default()
        };
        let ns = container_namespaces(&shared, 7, false);
        let fragment = OciFragment::from_cri(&res, ns, &pod, "c", CgroupDriver::Cgroupfs).unwrap();
        assert_eq!(fragment.cgroups_path, "/kubepods/besteffort/podu1/c");
        assert_eq!(
            (
                fragment.cpu_quota,
                fragment.memory_limit,
                fragment.memory_swap
            ),
            (None, None, None)
        );
        assert_eq!(
            fragment.namespaces[0].path.as_deref(),
            Some("/proc/7/ns/pid")
        );
        assert!(!fragment
            .namespaces
            .iter()
            .any(|n| n.kind == NamespaceKind::Cgroup));
        let files = fragment.cgroup_v2_files(WeightFormula::Linear);
        assert_eq!(files.cpu_max.as_deref(), Some("max 100000"));
        assert_eq!(files.memory_max, None);
        let host = PodNamespaces {
            host_pid: true,
            ..PodNamespaces::default()
        };
        let kinds: Vec<(&str, Option<String>)> = container_namespaces(&host, 1, true)
            .into_iter()
            .map(|n| (n.kind.as_str(), n.path))
            .collect();
        assert_eq!(kinds[0], ("pid", Some("/proc/1/ns/pid".to_string())));
        let order: Vec<&str> = kinds.iter().map(|(k, _)| *k).collect();
        assert_eq!(order, ["pid", "ipc", "uts", "mount", "network", "cgroup"]);
        assert_eq!(json_string("a\"b\\\n\u{1}"), r#""a\"b\\\n\u0001""#);
    }
}

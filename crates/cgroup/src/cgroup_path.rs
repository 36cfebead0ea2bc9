//! Cgroup names of the kubelet's hierarchy (`kubepods` / QoS tier / `pod<uid>`) and their
//! cgroupfs and systemd spellings: `CgroupName`, `NewCgroupName`, `ToCgroupfs`, `ToSystemd` of
//! kubernetes `pkg/kubelet/cm/cgroup_manager_linux.go`, with `ExpandSlice` of
//! opencontainers/cgroups `systemd/common.go`.

use crate::qos::QosClass;
use crate::CgroupError;

/// `defaultNodeAllocatableCgroupName` — pkg/kubelet/cm/node_container_manager_linux.go.
pub const KUBEPODS: &str = "kubepods";
/// `podCgroupNamePrefix` — pkg/kubelet/cm/pod_container_manager_linux.go.
pub const POD_CGROUP_PREFIX: &str = "pod";
/// `systemdSuffix` — pkg/kubelet/cm/cgroup_manager_linux.go.
const SYSTEMD_SUFFIX: &str = ".slice";

/// The kubelet's `--cgroup-driver`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CgroupDriver {
    /// Slices: `/kubepods.slice/kubepods-burstable.slice/…` (the kubeadm default).
    #[default]
    Systemd,
    /// Plain directories: `/kubepods/burstable/…`.
    Cgroupfs,
}

/// `CgroupName`: the driver-neutral list of path components.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CgroupName(Vec<String>);

impl CgroupName {
    /// The root, `[]`.
    pub fn root() -> Self {
        CgroupName(Vec::new())
    }

    /// `NewCgroupName(base, components...)`: components may not hold `/` or `_` ("we want to
    /// remap "-" => "_", so we forbid "_" so that we can always reverse the mapping").
    pub fn new(base: &CgroupName, components: &[&str]) -> Result<Self, CgroupError> {
        let mut parts = base.0.clone();
        for component in components {
            if component.contains('/') || component.contains('_') {
                return Err(CgroupError::InvalidCgroupName {
                    component: (*component).to_string(),
                });
            }
            parts.push((*component).to_string());
        }
        Ok(CgroupName(parts))
    }

    /// The components.
    pub fn parts(&self) -> &[String] {
        &self.0
    }

    /// `ToCgroupfs`: `"/" + path.Join(parts...)`, e.g. `/kubepods/burstable/pod1234-abcd`.
    pub fn to_cgroupfs(&self) -> String {
        let joined: Vec<&str> = self
            .0
            .iter()
            .map(String::as_str)
            .filter(|p| !p.is_empty())
            .collect();
        format!("/{}", joined.join("/"))
    }

    /// The systemd unit name of the leaf, e.g. `kubepods-burstable-pod1234_abcd.slice` (what
    /// the kubelet passes to the runtime as the cgroup parent).
    pub fn to_systemd_unit(&self) -> String {
        let length: usize = self.0.iter().map(|p| p.len() + 1).sum();
        let mut unit = String::with_capacity(length + SYSTEMD_SUFFIX.len());
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                unit.push('-');
            }
            for (j, piece) in part.split('-').enumerate() {
                if j > 0 {
                    unit.push('_');
                }
                unit.push_str(piece);
            }
        }
        unit.push_str(SYSTEMD_SUFFIX);
        unit
    }

    /// `ToSystemd`: escape `-` as `_` in each part, join with `-`, then `ExpandSlice`, e.g.
    /// `/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_abcd.slice`.
    pub fn to_systemd(&self) -> Result<String, CgroupError> {
        if self.0.is_empty() || (self.0.len() == 1 && self.0.iter().all(String::is_empty)) {
            return Ok("/".to_string());
        }
        expand_slice(&self.to_systemd_unit())
    }

    /// The path under the cgroup mount for `driver`.
    pub fn path(&self, driver: CgroupDriver) -> Result<String, CgroupError> {
        match driver {
            CgroupDriver::Systemd => self.to_systemd(),
            CgroupDriver::Cgroupfs => Ok(self.to_cgroupfs()),
        }
    }
}

/// `ExpandSlice`: `a-b-c.slice` → `/a.slice/a-b.slice/a-b-c.slice`.
fn expand_slice(slice: &str) -> Result<String, CgroupError> {
    let invalid = || CgroupError::InvalidCgroupName {
        component: slice.to_string(),
    };
    let name = slice.strip_suffix(SYSTEMD_SUFFIX).ok_or_else(invalid)?;
    if slice.contains('/') {
        return Err(invalid());
    }
    if name == "-" {
        return Ok("/".to_string());
    }
    let mut path = String::with_capacity(2 * slice.len() + 16);
    let mut prefix = String::with_capacity(slice.len());
    for component in name.split('-') {
        // "test--a.slice isn't permitted, nor is -test.slice."
        if component.is_empty() {
            return Err(invalid());
        }
        path.push('/');
        path.push_str(&prefix);
        path.push_str(component);
        path.push_str(SYSTEMD_SUFFIX);
        prefix.push_str(component);
        prefix.push('-');
    }
    Ok(path)
}

/// The QoS tier cgroup (qos_container_manager_linux.go): Guaranteed pods sit directly under
/// `kubepods`, the others under `kubepods/burstable` and `kubepods/besteffort`.
pub fn qos_cgroup_name(qos: QosClass) -> CgroupName {
    // Room for the pod's own component (pod_cgroup_name).
    let mut parts = Vec::with_capacity(3);
    parts.push(KUBEPODS.to_string());
    match qos {
        QosClass::Guaranteed => {}
        QosClass::Burstable => parts.push("burstable".to_string()),
        QosClass::BestEffort => parts.push("besteffort".to_string()),
    }
    CgroupName(parts)
}

/// `GetPodContainerName`: the QoS tier plus `pod<uid>`.
pub fn pod_cgroup_name(qos: QosClass, uid: &str) -> Result<CgroupName, CgroupError> {
    // CgroupName::new without copying the tier's components.
    let component = format!("{POD_CGROUP_PREFIX}{uid}");
    if component.contains('/') || component.contains('_') {
        return Err(CgroupError::InvalidCgroupName { component });
    }
    let mut name = qos_cgroup_name(qos);
    name.0.push(component);
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pod_paths_for_both_drivers() {
        let uid = "1234-abcd";
        let cases = [
            (
                QosClass::Guaranteed,
                "/kubepods/pod1234-abcd",
                "/kubepods.slice/kubepods-pod1234_abcd.slice",
            ),
            (
                QosClass::Burstable,
                "/kubepods/burstable/pod1234-abcd",
                "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1234_abcd.slice",
            ),
            (
                QosClass::BestEffort,
                "/kubepods/besteffort/pod1234-abcd",
                "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1234_abcd.slice",
            ),
        ];
        for (qos, cgroupfs, systemd) in cases {
            let name = pod_cgroup_name(qos, uid).unwrap();
            assert_eq!(name.path(CgroupDriver::Cgroupfs).unwrap(), cgroupfs);
            assert_eq!(name.path(CgroupDriver::Systemd).unwrap(), systemd);
        }
        let burstable = pod_cgroup_name(QosClass::Burstable, uid).unwrap();
        assert_eq!(
            burstable.to_systemd_unit(),
            "kubepods-burstable-pod1234_abcd.slice"
        );
    }

    #[test]
    fn roots_and_invalid_names() {
        assert_eq!(CgroupName::root().to_cgroupfs(), "/");
        assert_eq!(CgroupName::root().to_systemd().unwrap(), "/");
        assert_eq!(
            qos_cgroup_name(QosClass::Guaranteed).to_systemd().unwrap(),
            "/kubepods.slice"
        );
        for bad in ["a_b", "a/b"] {
            let err = CgroupName::new(&CgroupName::root(), &[bad]).unwrap_err();
            assert_eq!(err.code(), "E_INVALID_CGROUP_NAME");
        }
        // An empty component cannot be expanded into a slice.
        let empty = CgroupName::new(&CgroupName::root(), &["kubepods", ""]).unwrap();
        assert_eq!(
            empty.to_systemd().unwrap_err().code(),
            "E_INVALID_CGROUP_NAME"
        );
        assert_eq!(empty.to_cgroupfs(), "/kubepods");
        assert_eq!(expand_slice("-.slice").unwrap(), "/");
        assert!(expand_slice("a.service").is_err());
    }
}

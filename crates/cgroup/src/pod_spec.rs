//! The slice of a Kubernetes Pod this crate reads: containers, init containers with their
//! restart policy, overhead, priority. Plain data; `crate::json` fills it from v1 Pod JSON.

use crate::{CgroupError, Quantity};
use std::collections::BTreeMap;

/// `v1.ResourceCPU`.
pub const CPU: &str = "cpu";
/// `v1.ResourceMemory`.
pub const MEMORY: &str = "memory";
/// `v1.ResourceHugePagesPrefix`.
pub const HUGEPAGES_PREFIX: &str = "hugepages-";
/// `scheduling.SystemNodeCritical` — pkg/apis/scheduling/types.go.
pub const SYSTEM_NODE_CRITICAL: &str = "system-node-critical";
/// `scheduling.SystemCriticalPriority` (2 × HighestUserDefinablePriority) —
/// pkg/apis/scheduling/types.go.
pub const SYSTEM_CRITICAL_PRIORITY: i32 = 2_000_000_000;

/// `v1.ResourceList`: resource name → quantity, ordered for deterministic output.
pub type ResourceList = BTreeMap<String, Quantity>;

/// Parses `[("cpu", "500m"), ("memory", "1Gi")]` into a [`ResourceList`].
pub fn resource_list(entries: &[(&str, &str)]) -> Result<ResourceList, CgroupError> {
    entries
        .iter()
        .map(|(name, text)| Ok(((*name).to_string(), Quantity::parse(text)?)))
        .collect()
}

/// `v1.ResourceRequirements` (without claims).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resources {
    pub requests: ResourceList,
    pub limits: ResourceList,
}

/// `v1.ContainerRestartPolicy`. On an init container `Always` makes it a sidecar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerRestartPolicy {
    Always,
    OnFailure,
    Never,
}

/// `v1.Container`, the fields resource math reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Container {
    pub name: String,
    pub resources: Resources,
    pub restart_policy: Option<ContainerRestartPolicy>,
}

impl Container {
    /// A container with requests and limits given as quantity text.
    pub fn new(
        name: &str,
        requests: &[(&str, &str)],
        limits: &[(&str, &str)],
    ) -> Result<Self, CgroupError> {
        Ok(Container {
            name: name.to_string(),
            resources: Resources {
                requests: resource_list(requests)?,
                limits: resource_list(limits)?,
            },
            restart_policy: None,
        })
    }

    /// The same container with `restartPolicy: Always` (a sidecar when it is an init container).
    pub fn restartable(mut self) -> Self {
        self.restart_policy = Some(ContainerRestartPolicy::Always);
        self
    }

    /// `isRestartableInitContainer` (component-helpers/resource/helpers.go).
    pub fn is_restartable(&self) -> bool {
        self.restart_policy == Some(ContainerRestartPolicy::Always)
    }
}

/// Namespace sharing of the pod (`hostNetwork`, `hostPID`, `hostIPC`, `shareProcessNamespace`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PodNamespaces {
    pub host_network: bool,
    pub host_pid: bool,
    pub host_ipc: bool,
    pub share_process_namespace: bool,
    /// The pid of the pod sandbox (pause) process whose namespaces containers join; any
    /// placeholder works in a simulation.
    pub sandbox_pid: u32,
}

/// `v1.PodSpec` plus the metadata the kubelet's resource code reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodSpec {
    /// `metadata.uid`, used in the pod cgroup name.
    pub uid: String,
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    /// `spec.overhead` (RuntimeClass overhead).
    pub overhead: ResourceList,
    /// `spec.priority`.
    pub priority: Option<i32>,
    /// `spec.priorityClassName`.
    pub priority_class_name: String,
    /// A static pod (config source not the API) or its mirror pod.
    pub static_or_mirror: bool,
    pub namespaces: PodNamespaces,
}

impl PodSpec {
    /// A pod with a uid and regular containers.
    pub fn new(uid: &str, containers: Vec<Container>) -> Self {
        PodSpec {
            uid: uid.to_string(),
            containers,
            ..PodSpec::default()
        }
    }

    /// Regular containers, then init containers (the order of qos.go's `allContainers`).
    pub fn all_containers(&self) -> impl Iterator<Item = &Container> {
        self.containers.iter().chain(self.init_containers.iter())
    }

    /// Finds a regular or init container by name.
    pub fn container(&self, name: &str) -> Option<&Container> {
        self.all_containers().find(|c| c.name == name)
    }

    /// The API server's defaulting (`SetDefaults_Pod`, pkg/apis/core/v1/defaults.go): a
    /// container that sets a limit but no request for a resource gets the limit as request.
    /// The kubelet only ever sees defaulted pods.
    pub fn with_api_defaults(mut self) -> Self {
        for container in self
            .containers
            .iter_mut()
            .chain(self.init_containers.iter_mut())
        {
            let resources = &mut container.resources;
            for (name, limit) in &resources.limits {
                if !resources.requests.contains_key(name) {
                    resources.requests.insert(name.clone(), limit.clone());
                }
            }
        }
        self
    }

    /// The checks of API validation this crate depends on: at least one container, unique
    /// names, no negative quantity, no request above its limit.
    pub fn validate(&self) -> Result<(), CgroupError> {
        if self.containers.is_empty() {
            return Err(CgroupError::NoContainers);
        }
        for (i, container) in self.all_containers().enumerate() {
            // Pods have a handful of containers: comparing with the earlier ones allocates nothing.
            if self
                .all_containers()
                .take(i)
                .any(|earlier| earlier.name == container.name)
            {
                return Err(CgroupError::DuplicateContainer {
                    name: container.name.clone(),
                });
            }
            validate_resources(&container.name, &container.resources)?;
        }
        for (name, quantity) in &self.overhead {
            if quantity.sign() < 0 {
                return Err(CgroupError::NegativeQuantity {
                    container: String::new(),
                    resource: name.clone(),
                });
            }
        }
        Ok(())
    }

    /// `types.IsCriticalPod` (pkg/kubelet/types/pod_update.go): static, mirror, or priority at
    /// least SystemCriticalPriority.
    pub fn is_critical(&self) -> bool {
        self.static_or_mirror
            || self
                .priority
                .is_some_and(|priority| priority >= SYSTEM_CRITICAL_PRIORITY)
    }

    /// `types.IsNodeCriticalPod`: critical and of priority class `system-node-critical`.
    pub fn is_node_critical(&self) -> bool {
        self.is_critical() && self.priority_class_name == SYSTEM_NODE_CRITICAL
    }
}

fn validate_resources(container: &str, resources: &Resources) -> Result<(), CgroupError> {
    let error = |resource: &str, exceeds: bool| {
        let (container, resource) = (container.to_string(), resource.to_string());
        if exceeds {
            CgroupError::RequestExceedsLimit {
                container,
                resource,
            }
        } else {
            CgroupError::NegativeQuantity {
                container,
                resource,
            }
        }
    };
    for (name, quantity) in resources.requests.iter().chain(&resources.limits) {
        if quantity.sign() < 0 {
            return Err(error(name, false));
        }
    }
    for (name, request) in &resources.requests {
        if let Some(limit) = resources.limits.get(name) {
            if request > limit {
                return Err(error(name, true));
            }
        }
    }
    Ok(())
}

/// The amount of `name` in a list, zero when absent (`ResourceList.Cpu()`, `.Memory()`).
pub fn quantity_of(list: &ResourceList, name: &str) -> Quantity {
    list.get(name).cloned().unwrap_or_else(Quantity::zero)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaulting_copies_limits_into_missing_requests() {
        let pod = PodSpec::new(
            "u",
            vec![Container::new(
                "a",
                &[("memory", "1Gi")],
                &[("cpu", "1"), ("memory", "2Gi")],
            )
            .unwrap()],
        )
        .with_api_defaults();
        let requests = &pod.containers[0].resources.requests;
        assert_eq!(requests["cpu"].to_string(), "1");
        assert_eq!(requests["memory"].to_string(), "1Gi");
    }

    #[test]
    fn validation_errors_have_codes() {
        let over = PodSpec::new(
            "u",
            vec![Container::new("a", &[("cpu", "2")], &[("cpu", "1")]).unwrap()],
        );
        assert_eq!(
            over.validate().unwrap_err().code(),
            "E_REQUEST_EXCEEDS_LIMIT"
        );
        let negative = PodSpec::new(
            "u",
            vec![Container::new("a", &[("memory", "-1")], &[]).unwrap()],
        );
        assert_eq!(
            negative.validate().unwrap_err().code(),
            "E_NEGATIVE_QUANTITY"
        );
        assert_eq!(
            PodSpec::new("u", vec![]).validate().unwrap_err().code(),
            "E_NO_CONTAINERS"
        );
        let twice = PodSpec::new(
            "u",
            vec![
                Container::new("a", &[], &[]).unwrap(),
                Container::new("a", &[], &[]).unwrap(),
            ],
        );
        assert_eq!(
            twice.validate().unwrap_err().code(),
            "E_DUPLICATE_CONTAINER"
        );
        let mut bad_overhead = PodSpec::new("u", vec![Container::new("a", &[], &[]).unwrap()]);
        bad_overhead.overhead = resource_list(&[("cpu", "-1m")]).unwrap();
        assert_eq!(
            bad_overhead.validate().unwrap_err().code(),
            "E_NEGATIVE_QUANTITY"
        );
        let equal = PodSpec::new(
            "u",
            vec![Container::new("a", &[("cpu", "1000m")], &[("cpu", "1")]).unwrap()],
        );
        assert!(equal.validate().is_ok());
    }

    #[test]
    fn criticality() {
        let mut pod = PodSpec::new("u", vec![]);
        assert!(!pod.is_critical());
        pod.priority = Some(SYSTEM_CRITICAL_PRIORITY);
        assert!(pod.is_critical() && !pod.is_node_critical());
        pod.priority_class_name = SYSTEM_NODE_CRITICAL.into();
        assert!(pod.is_node_critical());
        pod.priority = Some(1000);
        assert!(!pod.is_node_critical());
        pod.static_or_mirror = true;
        assert!(pod.is_node_critical());
    }
}

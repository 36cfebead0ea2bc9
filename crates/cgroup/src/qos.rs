//! Pod QoS class: `GetPodQOS` of kubernetes `pkg/apis/core/v1/helper/qos/qos.go`.
//!
//! This is the summing form (Kubernetes ≤ 1.36). 1.37's `ComputePodQOS` classifies each
//! container (`requirementsQOS`) and combines the classes; on pods that pass validation
//! (requests ≤ limits, nothing negative) both give the same class, which
//! `tests/properties.rs` checks. `status.qosClass` precedence and pod-level resources are not
//! modelled.

use crate::pod_spec::{PodSpec, ResourceList, CPU, MEMORY};
use crate::CgroupError;

/// `v1.PodQOSClass`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum QosClass {
    Guaranteed,
    Burstable,
    BestEffort,
}

impl QosClass {
    /// The API spelling: `"Guaranteed"`, `"Burstable"`, `"BestEffort"`.
    pub fn as_str(self) -> &'static str {
        match self {
            QosClass::Guaranteed => "Guaranteed",
            QosClass::Burstable => "Burstable",
            QosClass::BestEffort => "BestEffort",
        }
    }
}

/// `supportedQoSComputeResources` — qos.go: only cpu and memory decide the class.
fn is_qos_resource(name: &str) -> bool {
    name == CPU || name == MEMORY
}

/// Adds the positive cpu/memory entries of `from` into `into`; returns the names it saw.
fn add_positive(into: &mut ResourceList, from: &ResourceList) -> Result<Vec<String>, CgroupError> {
    let mut found = Vec::new();
    for (name, quantity) in from {
        if !is_qos_resource(name) || quantity.sign() <= 0 {
            continue;
        }
        found.push(name.clone());
        let sum = match into.get(name) {
            Some(existing) => quantity.add(existing)?,
            None => quantity.clone(),
        };
        into.insert(name.clone(), sum);
    }
    Ok(found)
}

/// `GetPodQOS`: BestEffort without any positive cpu/memory request or limit; Guaranteed when
/// every container (init containers included) limits both cpu and memory and the summed
/// requests equal the summed limits; Burstable otherwise.
pub fn pod_qos(pod: &PodSpec) -> Result<QosClass, CgroupError> {
    let mut requests = ResourceList::new();
    let mut limits = ResourceList::new();
    let mut guaranteed = true;
    for container in pod.all_containers() {
        add_positive(&mut requests, &container.resources.requests)?;
        let found = add_positive(&mut limits, &container.resources.limits)?;
        if !(found.iter().any(|n| n == CPU) && found.iter().any(|n| n == MEMORY)) {
            guaranteed = false;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return Ok(QosClass::BestEffort);
    }
    if guaranteed {
        guaranteed = requests
            .iter()
            .all(|(name, request)| limits.get(name) == Some(request));
    }
    if guaranteed && requests.len() == limits.len() {
        Ok(QosClass::Guaranteed)
    } else {
        Ok(QosClass::Burstable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pod_spec::Container;

    fn pod(containers: Vec<Container>) -> PodSpec {
        PodSpec::new("u", containers)
    }

    fn c(requests: &[(&str, &str)], limits: &[(&str, &str)]) -> Container {
        Container::new("c", requests, limits).unwrap()
    }

    #[test]
    fn classes_follow_qos_go() {
        let table: Vec<(PodSpec, QosClass)> = vec![
            (pod(vec![c(&[], &[])]), QosClass::BestEffort),
            // Zero quantities do not count.
            (
                pod(vec![c(&[("cpu", "0")], &[("memory", "0")])]),
                QosClass::BestEffort,
            ),
            // Only cpu and memory count.
            (
                pod(vec![c(&[("ephemeral-storage", "1Gi")], &[])]),
                QosClass::BestEffort,
            ),
            (
                pod(vec![c(
                    &[("cpu", "1"), ("memory", "1Gi")],
                    &[("cpu", "1"), ("memory", "1Gi")],
                )]),
                QosClass::Guaranteed,
            ),
            // 1000m equals 1.
            (
                pod(vec![c(
                    &[("cpu", "1000m"), ("memory", "1024Mi")],
                    &[("cpu", "1"), ("memory", "1Gi")],
                )]),
                QosClass::Guaranteed,
            ),
            // Limits only: Burstable before API defaulting, Guaranteed after it.
            (
                pod(vec![c(&[], &[("cpu", "1"), ("memory", "1Gi")])]),
                QosClass::Burstable,
            ),
            (
                pod(vec![c(&[], &[("cpu", "1"), ("memory", "1Gi")])]).with_api_defaults(),
                QosClass::Guaranteed,
            ),
            (
                pod(vec![c(
                    &[("cpu", "500m"), ("memory", "1Gi")],
                    &[("cpu", "1"), ("memory", "1Gi")],
                )]),
                QosClass::Burstable,
            ),
            // Missing memory limit.
            (
                pod(vec![c(&[("cpu", "1")], &[("cpu", "1")])]),
                QosClass::Burstable,
            ),
            (pod(vec![c(&[("memory", "1Gi")], &[])]), QosClass::Burstable),
        ];
        for (i, (p, expected)) in table.iter().enumerate() {
            assert_eq!(pod_qos(p).unwrap(), *expected, "case {i}");
        }
    }

    #[test]
    fn init_containers_count_too() {
        let full = || {
            c(
                &[("cpu", "1"), ("memory", "1Gi")],
                &[("cpu", "1"), ("memory", "1Gi")],
            )
        };
        let mut p = pod(vec![full()]);
        p.init_containers = vec![c(&[("cpu", "1")], &[])];
        assert_eq!(pod_qos(&p).unwrap(), QosClass::Burstable);
        p.init_containers = vec![full()];
        assert_eq!(pod_qos(&p).unwrap(), QosClass::Guaranteed);
        assert_eq!(QosClass::BestEffort.as_str(), "BestEffort");
    }
}

//! Pod QoS class: `GetPodQOS` of kubernetes `pkg/apis/core/v1/helper/qos/qos.go`.
//!
//! This is the summing form (Kubernetes ≤ 1.36). 1.37's `ComputePodQOS` classifies each
//! container (`requirementsQOS`) and combines the classes; on pods that pass validation
//! (requests ≤ limits, nothing negative) both give the same class, which
//! `tests/properties.rs` checks. `status.qosClass` precedence and pod-level resources are not
//! modelled.

use crate::pod_spec::{PodSpec, ResourceList, CPU, MEMORY};
use crate::{CgroupError, Quantity};

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

/// Running sums of the positive cpu and memory amounts (`supportedQoSComputeResources` —
/// qos.go: only cpu and memory decide the class).
#[derive(Default)]
struct QosSums {
    cpu: Option<Quantity>,
    memory: Option<Quantity>,
}

impl QosSums {
    /// Adds the positive cpu/memory entries of `from` (in the list's order, cpu first); returns
    /// whether it saw (cpu, memory).
    fn add_positive(&mut self, from: &ResourceList) -> Result<(bool, bool), CgroupError> {
        let add = |sum: &mut Option<Quantity>, quantity: Option<&Quantity>| {
            let Some(quantity) = quantity.filter(|q| q.sign() > 0) else {
                return Ok(false);
            };
            *sum = Some(match sum.take() {
                Some(existing) => quantity.add(&existing)?,
                None => quantity.clone(),
            });
            Ok::<bool, CgroupError>(true)
        };
        let cpu = add(&mut self.cpu, from.get(CPU))?;
        let memory = add(&mut self.memory, from.get(MEMORY))?;
        Ok((cpu, memory))
    }

    fn len(&self) -> usize {
        usize::from(self.cpu.is_some()) + usize::from(self.memory.is_some())
    }
}

/// `GetPodQOS`: BestEffort without any positive cpu/memory request or limit; Guaranteed when
/// every container (init containers included) limits both cpu and memory and the summed
/// requests equal the summed limits; Burstable otherwise.
pub fn pod_qos(pod: &PodSpec) -> Result<QosClass, CgroupError> {
    let mut requests = QosSums::default();
    let mut limits = QosSums::default();
    let mut guaranteed = true;
    for container in pod.all_containers() {
        requests.add_positive(&container.resources.requests)?;
        let (cpu, memory) = limits.add_positive(&container.resources.limits)?;
        if !(cpu && memory) {
            guaranteed = false;
        }
    }
    if requests.len() == 0 && limits.len() == 0 {
        return Ok(QosClass::BestEffort);
    }
    if guaranteed {
        let same = |request: &Option<Quantity>, limit: &Option<Quantity>| {
            request.as_ref().is_none_or(|r| limit.as_ref() == Some(r))
        };
        guaranteed = same(&requests.cpu, &limits.cpu) && same(&requests.memory, &limits.memory);
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

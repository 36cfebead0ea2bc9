//! Pod-level requests and limits: `PodRequests` / `PodLimits` of
//! kubernetes `staging/src/k8s.io/component-helpers/resource/helpers.go`, and the scheduler's
//! non-zero defaults of `pkg/scheduler/util/pod_resources.go`.
//!
//! Regular containers are summed; each init container's use is its own resources plus the
//! restartable ("sidecar") init containers started before it; the pod needs the larger of the
//! two, per resource; sidecars also run beside the regular containers, so they add to the sum.
//! Quantities are added exactly, as Kubernetes does, and converted to integers at the end.

use crate::pod_spec::{Container, PodSpec, ResourceList, CPU, MEMORY};
use crate::{CgroupError, Format, Quantity};

/// `DefaultMilliCPURequest`, 0.1 core — pkg/scheduler/util/pod_resources.go.
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// `DefaultMemoryRequest`, 200 MiB — pkg/scheduler/util/pod_resources.go.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// The options of `PodResourcesOptions` that apply to a spec (no status, no pod-level resources).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PodResourcesOptions {
    /// `ExcludeOverhead`: leave `spec.overhead` out.
    pub exclude_overhead: bool,
    /// `NonMissingContainerRequests`: values used for a container that does not name the
    /// resource at all (an explicit zero stays zero).
    pub non_missing_container_requests: ResourceList,
}

/// `addResourceList`: adds every entry of `new` into `list`.
fn add_into(list: &mut ResourceList, new: &ResourceList) -> Result<(), CgroupError> {
    for (name, quantity) in new {
        let sum = match list.get(name) {
            Some(value) => value.add(quantity)?,
            None => quantity.clone(),
        };
        list.insert(name.clone(), sum);
    }
    Ok(())
}

/// `maxResourceList`: `list[name] = max(list[name], new[name])` for every name in `new`.
fn max_into(list: &mut ResourceList, new: &ResourceList) {
    for (name, quantity) in new {
        if list.get(name).is_none_or(|value| quantity > value) {
            list.insert(name.clone(), quantity.clone());
        }
    }
}

/// `applyNonMissing`.
fn with_non_missing(list: &ResourceList, non_missing: &ResourceList) -> ResourceList {
    let mut copy = list.clone();
    for (name, quantity) in non_missing {
        copy.entry(name.clone()).or_insert_with(|| quantity.clone());
    }
    copy
}

/// `aggregateContainerResourcesByFn` over the spec.
fn aggregate(
    pod: &PodSpec,
    non_missing: &ResourceList,
    pick: impl Fn(&Container) -> &ResourceList,
) -> Result<ResourceList, CgroupError> {
    let resources_of = |c: &Container| {
        if non_missing.is_empty() {
            pick(c).clone()
        } else {
            with_non_missing(pick(c), non_missing)
        }
    };
    let mut result = ResourceList::new();
    for container in &pod.containers {
        add_into(&mut result, &resources_of(container))?;
    }
    let mut restartable = ResourceList::new();
    let mut init = ResourceList::new();
    for container in &pod.init_containers {
        let own = resources_of(container);
        let in_use = if container.is_restartable() {
            add_into(&mut result, &own)?;
            add_into(&mut restartable, &own)?;
            restartable.clone()
        } else {
            let mut combined = own;
            add_into(&mut combined, &restartable)?;
            combined
        };
        max_into(&mut init, &in_use);
    }
    max_into(&mut result, &init);
    Ok(result)
}

/// `PodRequests`: the pod's requests, overhead included unless excluded.
pub fn pod_requests(
    pod: &PodSpec,
    options: &PodResourcesOptions,
) -> Result<ResourceList, CgroupError> {
    let mut requests = aggregate(pod, &options.non_missing_container_requests, |c| {
        &c.resources.requests
    })?;
    if !options.exclude_overhead {
        add_into(&mut requests, &pod.overhead)?;
    }
    Ok(requests)
}

/// `PodLimits`: the pod's limits; overhead is added only to limits that are set and non-zero.
pub fn pod_limits(
    pod: &PodSpec,
    options: &PodResourcesOptions,
) -> Result<ResourceList, CgroupError> {
    let mut limits = aggregate(pod, &ResourceList::new(), |c| &c.resources.limits)?;
    if !options.exclude_overhead {
        for (name, overhead) in &pod.overhead {
            if let Some(value) = limits.get(name).filter(|v| !v.is_zero()) {
                let sum = value.add(overhead)?;
                limits.insert(name.clone(), sum);
            }
        }
    }
    Ok(limits)
}

/// The scheduler's defaults for containers that name no CPU or memory request
/// (`calculateResource` in pkg/scheduler/framework/types.go).
pub fn non_zero_defaults() -> ResourceList {
    let mut defaults = ResourceList::new();
    defaults.insert(
        CPU.to_string(),
        Quantity::from_milli(DEFAULT_MILLI_CPU_REQUEST, Format::DecimalSI),
    );
    defaults.insert(
        MEMORY.to_string(),
        Quantity::new(DEFAULT_MEMORY_REQUEST, Format::DecimalSI),
    );
    defaults
}

/// The pod's requests as the scheduler counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SchedulerRequests {
    /// Requested milliCPU (`Resource.MilliCPU`).
    pub milli_cpu: i64,
    /// Requested memory bytes (`Resource.Memory`).
    pub memory: i64,
    /// milliCPU with 100m for every container that names no CPU request (`NonZeroRequested`).
    pub non_zero_milli_cpu: i64,
    /// Memory with 200Mi for every container that names no memory request.
    pub non_zero_memory: i64,
}

/// `calculateResource`: requests and non-zero requests, overhead included.
pub fn scheduler_requests(pod: &PodSpec) -> Result<SchedulerRequests, CgroupError> {
    let requests = pod_requests(pod, &PodResourcesOptions::default())?;
    let non_zero = pod_requests(
        pod,
        &PodResourcesOptions {
            exclude_overhead: false,
            non_missing_container_requests: non_zero_defaults(),
        },
    )?;
    let milli = |list: &ResourceList| list.get(CPU).map_or(Ok(0), Quantity::milli_value);
    let bytes = |list: &ResourceList| list.get(MEMORY).map_or(Ok(0), Quantity::value);
    Ok(SchedulerRequests {
        milli_cpu: milli(&requests)?,
        memory: bytes(&requests)?,
        non_zero_milli_cpu: milli(&non_zero)?,
        non_zero_memory: bytes(&non_zero)?,
    })
}

/// `GetNonzeroRequests` for one container's requests: `(milliCPU, memory bytes)`, with the
/// defaults when a resource is not named.
pub fn non_zero_container_requests(requests: &ResourceList) -> Result<(i64, i64), CgroupError> {
    let cpu = match requests.get(CPU) {
        Some(q) => q.milli_value()?,
        None => DEFAULT_MILLI_CPU_REQUEST,
    };
    let memory = match requests.get(MEMORY) {
        Some(q) => q.value()?,
        None => DEFAULT_MEMORY_REQUEST,
    };
    Ok((cpu, memory))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pod_spec::resource_list;

    fn c(name: &str, requests: &[(&str, &str)]) -> Container {
        Container::new(name, requests, &[]).unwrap()
    }

    fn text(list: &ResourceList) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect()
    }

    fn pairs(entries: &[(&str, &str)]) -> Vec<(String, String)> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn regular_containers_are_summed() {
        let pod = PodSpec::new(
            "u",
            vec![
                c("a", &[("cpu", "100m"), ("memory", "1Gi")]),
                c("b", &[("cpu", "1")]),
            ],
        );
        let requests = pod_requests(&pod, &PodResourcesOptions::default()).unwrap();
        assert_eq!(
            text(&requests),
            pairs(&[("cpu", "1100m"), ("memory", "1Gi")])
        );
    }

    #[test]
    fn init_containers_take_the_max() {
        // The init container's 2 CPUs exceed the regular 1.1; its 10Mi memory does not.
        let mut pod = PodSpec::new(
            "u",
            vec![
                c("a", &[("cpu", "100m"), ("memory", "1Gi")]),
                c("b", &[("cpu", "1")]),
            ],
        );
        pod.init_containers = vec![c("init", &[("cpu", "2"), ("memory", "10Mi")])];
        let requests = pod_requests(&pod, &PodResourcesOptions::default()).unwrap();
        assert_eq!(text(&requests), pairs(&[("cpu", "2"), ("memory", "1Gi")]));
    }

    #[test]
    fn sidecars_add_to_the_sum_and_to_later_init_containers() {
        // KEP-753 example: sidecar 1 CPU runs beside everything; init "b" (2 CPU) runs after
        // the sidecar, so initialization peaks at 3 CPU; regular 1 CPU + sidecar 1 = 2 CPU.
        let mut pod = PodSpec::new("u", vec![c("main", &[("cpu", "1")])]);
        pod.init_containers = vec![
            c("side", &[("cpu", "1")]).restartable(),
            c("b", &[("cpu", "2")]),
        ];
        let requests = pod_requests(&pod, &PodResourcesOptions::default()).unwrap();
        assert_eq!(text(&requests), pairs(&[("cpu", "3")]));
        // An init container before the sidecar does not see it.
        pod.init_containers.reverse();
        let requests = pod_requests(&pod, &PodResourcesOptions::default()).unwrap();
        assert_eq!(text(&requests), pairs(&[("cpu", "2")]));
    }

    #[test]
    fn overhead_is_added_to_requests_and_to_set_limits_only() {
        let mut pod = PodSpec::new(
            "u",
            vec![Container::new("a", &[("cpu", "1")], &[("cpu", "2")]).unwrap()],
        );
        pod.overhead = resource_list(&[("cpu", "250m"), ("memory", "120Mi")]).unwrap();
        let requests = pod_requests(&pod, &PodResourcesOptions::default()).unwrap();
        assert_eq!(
            text(&requests),
            pairs(&[("cpu", "1250m"), ("memory", "120Mi")])
        );
        let limits = pod_limits(&pod, &PodResourcesOptions::default()).unwrap();
        assert_eq!(text(&limits), pairs(&[("cpu", "2250m")]));
        let excluded = PodResourcesOptions {
            exclude_overhead: true,
            ..Default::default()
        };
        assert_eq!(
            text(&pod_requests(&pod, &excluded).unwrap()),
            pairs(&[("cpu", "1")])
        );
    }

    #[test]
    fn scheduler_defaults_fill_missing_requests_only() {
        // "a" names nothing, "b" names cpu 0 explicitly: only "a" gets 100m; both lack memory.
        let pod = PodSpec::new("u", vec![c("a", &[]), c("b", &[("cpu", "0")])]);
        let got = scheduler_requests(&pod).unwrap();
        assert_eq!(
            got,
            SchedulerRequests {
                milli_cpu: 0,
                memory: 0,
                non_zero_milli_cpu: 100,
                non_zero_memory: 2 * DEFAULT_MEMORY_REQUEST,
            }
        );
        assert_eq!(
            non_zero_container_requests(&ResourceList::new()).unwrap(),
            (100, 209_715_200)
        );
        let explicit = resource_list(&[("cpu", "0"), ("memory", "0")]).unwrap();
        assert_eq!(non_zero_container_requests(&explicit).unwrap(), (0, 0));
    }

    #[test]
    fn sub_milli_requests_are_summed_exactly() {
        // Two 0.5m requests make exactly 1m, not the 2m that per-container rounding gives.
        let pod = PodSpec::new(
            "u",
            vec![c("a", &[("cpu", "0.5m")]), c("b", &[("cpu", "0.5m")])],
        );
        assert_eq!(scheduler_requests(&pod).unwrap().milli_cpu, 1);
    }
}

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

/// A resource list under construction: names borrowed from the spec, sorted like the
/// `ResourceList` it becomes, so that sums run (and fail) in the same order as upstream's maps.
#[derive(Clone, Default)]
struct Totals<'a>(Vec<(&'a str, Quantity)>);

impl<'a> Totals<'a> {
    fn slot(&mut self, name: &'a str) -> Result<&mut Quantity, usize> {
        match self.0.binary_search_by(|(n, _)| (*n).cmp(name)) {
            Ok(i) => self.0.get_mut(i).map(|(_, q)| q).ok_or(i),
            Err(i) => Err(i),
        }
    }

    /// `addResourceList` of one entry: `list[name] = list[name] + quantity`.
    fn add(&mut self, name: &'a str, quantity: &Quantity) -> Result<(), CgroupError> {
        match self.slot(name) {
            Ok(value) => *value = value.add(quantity)?,
            Err(at) => self.0.insert(at, (name, quantity.clone())),
        }
        Ok(())
    }

    /// `maxResourceList` of one entry.
    fn max(&mut self, name: &'a str, quantity: &Quantity) {
        match self.slot(name) {
            Ok(value) => {
                if *quantity > *value {
                    *value = quantity.clone();
                }
            }
            Err(at) => self.0.insert(at, (name, quantity.clone())),
        }
    }

    fn add_all(&mut self, new: &Totals<'a>) -> Result<(), CgroupError> {
        new.0.iter().try_for_each(|(name, q)| self.add(name, q))
    }

    fn max_all(&mut self, new: &Totals<'a>) {
        new.0.iter().for_each(|(name, q)| self.max(name, q));
    }

    fn into_list(self) -> ResourceList {
        self.0
            .into_iter()
            .map(|(name, q)| (name.to_string(), q))
            .collect()
    }
}

/// A container's own resources as [`Totals`], with `applyNonMissing` for the names in
/// `non_missing` that it does not name.
fn own<'a>(list: &'a ResourceList, non_missing: &[(&'a str, &Quantity)]) -> Totals<'a> {
    let mut own = Totals(Vec::with_capacity(list.len() + non_missing.len()));
    own.0
        .extend(list.iter().map(|(name, q)| (name.as_str(), q.clone())));
    for (name, q) in non_missing {
        if !list.contains_key(*name) {
            own.max(name, q);
        }
    }
    own
}

/// `aggregateContainerResourcesByFn` over the spec.
fn aggregate<'a>(
    pod: &'a PodSpec,
    non_missing: &[(&'a str, &Quantity)],
    pick: impl Fn(&'a Container) -> &'a ResourceList,
) -> Result<Totals<'a>, CgroupError> {
    let mut result = Totals::default();
    for container in &pod.containers {
        let list = pick(container);
        if non_missing.is_empty() {
            for (name, q) in list {
                result.add(name, q)?;
            }
        } else {
            result.add_all(&own(list, non_missing))?;
        }
    }
    let mut restartable = Totals::default();
    let mut init = Totals::default();
    for container in &pod.init_containers {
        let own = own(pick(container), non_missing);
        if container.is_restartable() {
            result.add_all(&own)?;
            restartable.add_all(&own)?;
            init.max_all(&restartable);
        } else {
            let mut combined = own;
            combined.add_all(&restartable)?;
            init.max_all(&combined);
        }
    }
    result.max_all(&init);
    Ok(result)
}

/// `PodRequests` with the default options, before it becomes a `ResourceList`.
fn requests_totals(pod: &PodSpec) -> Result<Totals<'_>, CgroupError> {
    let mut requests = aggregate(pod, &[], |c| &c.resources.requests)?;
    for (name, q) in &pod.overhead {
        requests.add(name, q)?;
    }
    Ok(requests)
}

/// `PodRequests`: the pod's requests, overhead included unless excluded.
pub fn pod_requests(
    pod: &PodSpec,
    options: &PodResourcesOptions,
) -> Result<ResourceList, CgroupError> {
    let non_missing: Vec<(&str, &Quantity)> = options
        .non_missing_container_requests
        .iter()
        .map(|(name, q)| (name.as_str(), q))
        .collect();
    let mut requests = aggregate(pod, &non_missing, |c| &c.resources.requests)?;
    if !options.exclude_overhead {
        for (name, q) in &pod.overhead {
            requests.add(name, q)?;
        }
    }
    Ok(requests.into_list())
}

/// `PodLimits`: the pod's limits; overhead is added only to limits that are set and non-zero.
pub fn pod_limits(
    pod: &PodSpec,
    options: &PodResourcesOptions,
) -> Result<ResourceList, CgroupError> {
    let mut limits = aggregate(pod, &[], |c| &c.resources.limits)?;
    if !options.exclude_overhead {
        for (name, overhead) in &pod.overhead {
            if let Ok(value) = limits.slot(name) {
                if !value.is_zero() {
                    *value = value.add(overhead)?;
                }
            }
        }
    }
    Ok(limits.into_list())
}

/// `PodRequests` and `PodLimits` with the default options, computed once for a pod.
#[derive(Debug, Clone)]
pub(crate) struct PodTotals {
    pub requests: ResourceList,
    pub limits: ResourceList,
}

impl PodTotals {
    pub(crate) fn of(pod: &PodSpec) -> Result<Self, CgroupError> {
        let options = PodResourcesOptions::default();
        Ok(PodTotals {
            requests: requests_totals(pod)?.into_list(),
            limits: pod_limits(pod, &options)?,
        })
    }
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
    let requests = requests_totals(pod)?.into_list();
    scheduler_requests_from(pod, &requests)
}

/// [`scheduler_requests`] given the pod's `PodRequests` (default options).
pub(crate) fn scheduler_requests_from(
    pod: &PodSpec,
    requests: &ResourceList,
) -> Result<SchedulerRequests, CgroupError> {
    let cpu_default = Quantity::from_milli(DEFAULT_MILLI_CPU_REQUEST, Format::DecimalSI);
    let memory_default = Quantity::new(DEFAULT_MEMORY_REQUEST, Format::DecimalSI);
    let [cpu, memory] = non_zero_requests(pod, [&cpu_default, &memory_default])?;
    let milli = |q: Option<&Quantity>| q.map_or(Ok(0), Quantity::milli_value);
    let bytes = |q: Option<&Quantity>| q.map_or(Ok(0), Quantity::value);
    Ok(SchedulerRequests {
        milli_cpu: milli(requests.get(CPU))?,
        memory: bytes(requests.get(MEMORY))?,
        non_zero_milli_cpu: milli(cpu.as_ref())?,
        non_zero_memory: bytes(memory.as_ref())?,
    })
}

/// cpu and memory of `PodRequests` with `NonMissingContainerRequests` = `defaults` and the
/// overhead: [`aggregate`] for those two names only, in the same order of operations. The
/// other names sum as in plain `PodRequests`, which the caller has already computed.
fn non_zero_requests(
    pod: &PodSpec,
    defaults: [&Quantity; 2],
) -> Result<[Option<Quantity>; 2], CgroupError> {
    type Pair = [Option<Quantity>; 2];
    fn add(into: &mut Pair, new: &Pair) -> Result<(), CgroupError> {
        for (slot, q) in into.iter_mut().zip(new) {
            if let Some(q) = q {
                *slot = Some(match slot.take() {
                    Some(value) => value.add(q)?,
                    None => q.clone(),
                });
            }
        }
        Ok(())
    }
    fn max(into: &mut Pair, new: &Pair) {
        for (slot, q) in into.iter_mut().zip(new) {
            if let Some(q) = q {
                if slot.as_ref().is_none_or(|value| q > value) {
                    *slot = Some(q.clone());
                }
            }
        }
    }
    let own = |c: &Container| -> Pair {
        let requests = &c.resources.requests;
        let [cpu, memory] = defaults;
        [
            Some(requests.get(CPU).unwrap_or(cpu).clone()),
            Some(requests.get(MEMORY).unwrap_or(memory).clone()),
        ]
    };
    let mut result: Pair = [None, None];
    for container in &pod.containers {
        add(&mut result, &own(container))?;
    }
    let mut restartable: Pair = [None, None];
    let mut init: Pair = [None, None];
    for container in &pod.init_containers {
        let own = own(container);
        if container.is_restartable() {
            add(&mut result, &own)?;
            add(&mut restartable, &own)?;
            max(&mut init, &restartable);
        } else {
            let mut combined = own;
            add(&mut combined, &restartable)?;
            max(&mut init, &combined);
        }
    }
    max(&mut result, &init);
    let overhead = [
        pod.overhead.get(CPU).cloned(),
        pod.overhead.get(MEMORY).cloned(),
    ];
    add(&mut result, &overhead)?;
    Ok(result)
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

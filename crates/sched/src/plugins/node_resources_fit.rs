//! The NodeResourcesFit filter: does the node have room for the pod's requests?
//! `pkg/scheduler/framework/plugins/noderesources/fit.go` `fitsRequest`.

use std::collections::BTreeSet;

use crate::{is_extended_resource_name, NodeResources, Resource};

/// Plugin name, as in the scheduler configuration.
pub const NAME: &str = "NodeResourcesFit";

/// One resource the node is short of, as fit.go's `InsufficientResource`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsufficientResource {
    pub resource_name: String,
    /// Kubernetes' reason string, e.g. `"Insufficient cpu"`, `"Too many pods"`.
    pub reason: String,
    pub requested: i64,
    pub used: i64,
    pub capacity: i64,
}

/// `NodeResourcesFitArgs.ignoredResources` / `ignoredResourceGroups`.
#[derive(Debug, Clone, Default)]
pub struct FitArgs {
    pub ignored_resources: BTreeSet<String>,
    pub ignored_resource_groups: BTreeSet<String>,
}

/// Every resource the node is short of for a pod requesting `pod`; empty when the pod fits.
pub fn fits_request(
    pod: &Resource,
    node: &NodeResources,
    args: &FitArgs,
) -> Vec<InsufficientResource> {
    let mut short = Vec::new();
    if node.pod_count + 1 > node.allowed_pod_number {
        short.push(InsufficientResource {
            resource_name: "pods".into(),
            reason: "Too many pods".into(),
            requested: 1,
            used: node.pod_count,
            capacity: node.allowed_pod_number,
        });
    }
    if pod.is_zero() {
        return short;
    }
    let (alloc, used) = (&node.allocatable, &node.requested);
    for (name, requested, used, capacity) in [
        ("cpu", pod.milli_cpu, used.milli_cpu, alloc.milli_cpu),
        ("memory", pod.memory, used.memory, alloc.memory),
        (
            "ephemeral-storage",
            pod.ephemeral_storage,
            used.ephemeral_storage,
            alloc.ephemeral_storage,
        ),
    ] {
        if requested > 0 && requested > capacity - used {
            short.push(insufficient(name, requested, used, capacity));
        }
    }
    for (name, &requested) in &pod.scalar {
        if requested == 0 || is_ignored(name, args) {
            continue;
        }
        let capacity = alloc.scalar.get(name).copied().unwrap_or(0);
        let used = used.scalar.get(name).copied().unwrap_or(0);
        if requested > capacity - used {
            short.push(insufficient(name, requested, used, capacity));
        }
    }
    short
}

fn insufficient(name: &str, requested: i64, used: i64, capacity: i64) -> InsufficientResource {
    InsufficientResource {
        resource_name: name.into(),
        reason: format!("Insufficient {name}"),
        requested,
        used,
        capacity,
    }
}

fn is_ignored(name: &str, args: &FitArgs) -> bool {
    if !is_extended_resource_name(name) {
        return false;
    }
    let group = name.split('/').next().unwrap_or(name);
    args.ignored_resources.contains(name) || args.ignored_resource_groups.contains(group)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(milli_cpu: i64, memory: i64) -> Resource {
        Resource {
            milli_cpu,
            memory,
            ..Resource::default()
        }
    }

    /// A node of scheduler_perf's template: 4 CPU, 32Gi, 110 pods.
    fn node(requested: Resource, pod_count: i64) -> NodeResources {
        NodeResources {
            allocatable: resource(4000, 32 << 30),
            allowed_pod_number: 110,
            requested,
            pod_count,
        }
    }

    fn reasons(pod: &Resource, node: &NodeResources) -> Vec<String> {
        fits_request(pod, node, &FitArgs::default())
            .into_iter()
            .map(|r| r.reason)
            .collect::<Vec<_>>()
    }

    #[test]
    fn a_pod_that_fits_has_no_reasons() {
        assert!(reasons(&resource(100, 500 << 20), &node(resource(3900, 0), 10)).is_empty());
    }

    #[test]
    fn each_short_resource_is_reported_in_fit_go_order() {
        let pod = resource(200, 1 << 30);
        let full = node(resource(3900, 32 << 30), 110);
        assert_eq!(
            reasons(&pod, &full),
            ["Too many pods", "Insufficient cpu", "Insufficient memory"]
        );
        let cpu = &fits_request(&pod, &full, &FitArgs::default())[1];
        assert_eq!((cpu.requested, cpu.used, cpu.capacity), (200, 3900, 4000));
    }

    #[test]
    fn a_best_effort_pod_is_only_limited_by_pod_count() {
        let full = node(resource(4000, 32 << 30), 109);
        assert!(reasons(&Resource::default(), &full).is_empty());
        let at_capacity = node(Resource::default(), 110);
        assert_eq!(
            reasons(&Resource::default(), &at_capacity),
            ["Too many pods"]
        );
    }

    #[test]
    fn extended_resources_can_be_ignored_by_name_or_group() {
        let mut pod = resource(0, 0);
        pod.scalar.insert("example.com/gpu".into(), 1);
        let n = node(Resource::default(), 0);
        assert_eq!(reasons(&pod, &n), ["Insufficient example.com/gpu"]);
        let by_group = FitArgs {
            ignored_resource_groups: ["example.com".to_string()].into(),
            ..FitArgs::default()
        };
        assert!(fits_request(&pod, &n, &by_group).is_empty());
        // Native scalar resources (hugepages) are never ignored.
        let mut huge = resource(0, 0);
        huge.scalar.insert("hugepages-2Mi".into(), 2 << 20);
        let ignore_all = FitArgs {
            ignored_resources: ["hugepages-2Mi".to_string()].into(),
            ..FitArgs::default()
        };
        assert_eq!(fits_request(&huge, &n, &ignore_all).len(), 1);
    }
}

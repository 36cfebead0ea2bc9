//! Ported from kube-scheduler's noderesources tests (least_allocated_test.go,
//! balanced_allocation_test.go, fit_test.go): same inputs, same expected scores and reasons.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::plugins::node_resources_fit::{
    FitArgs, ResourceSpec, ScoringStrategy, ScoringStrategyType, UtilizationShapePoint,
};
use kubewasm_sched::*;

fn two_container_pod() -> PodSpec {
    pod().req(1000, 2000).req(2000, 3000).obj()
}

fn fit_profile(strategy: ScoringStrategy) -> ProfileConfig {
    let mut cfg = only_score("NodeResourcesFit");
    cfg.plugin_config
        .push(PluginArgs::NodeResourcesFit(FitArgs {
            scoring_strategy: strategy,
            ..FitArgs::default()
        }));
    cfg
}

fn least(resources: Vec<ResourceSpec>) -> ProfileConfig {
    fit_profile(ScoringStrategy {
        kind: ScoringStrategyType::LeastAllocated,
        resources,
        shape: vec![],
    })
}

fn rs(name: &str, weight: i64) -> ResourceSpec {
    ResourceSpec {
        name: name.into(),
        weight,
    }
}

fn defaults() -> Vec<ResourceSpec> {
    vec![rs("cpu", 1), rs("memory", 1)]
}

fn scores(cfg: &ProfileConfig, nodes: &[NodeSpec], pods: &[PodSpec], p: &PodSpec) -> Vec<i64> {
    plugin_scores(cfg, nodes, pods, p)
        .into_iter()
        .map(|(_, s)| s)
        .collect()
}

// least_allocated_test.go TestLeastAllocatedScoringStrategy.
#[test]
fn least_allocated_nothing_scheduled_nothing_requested() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(4000, 10000).obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &[], &pod().obj()),
        [100, 100]
    );
}

// least_allocated_test.go "nothing scheduled, resources requested, differently sized nodes".
#[test]
fn least_allocated_differently_sized_nodes() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(6000, 10000).obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &[], &two_container_pod()),
        [37, 50]
    );
}

// least_allocated_test.go "no resources requested, pods scheduled".
#[test]
fn least_allocated_no_resources_requested_pods_scheduled() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(4000, 10000).obj(),
    ];
    let pods = [
        pod().node("node1").obj(),
        pod().node("node1").obj(),
        pod().node("node2").obj(),
        pod().node("node2").obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &pods, &pod().obj()),
        [100, 100]
    );
}

// least_allocated_test.go "no resources requested, pods scheduled with resources".
#[test]
fn least_allocated_pods_scheduled_with_resources() {
    let nodes = [
        node("node1").capacity(10000, 20000).obj(),
        node("node2").capacity(10000, 20000).obj(),
    ];
    let pods = [
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node2").req(3000, 0).obj(),
        pod().node("node2").req(3000, 5000).obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &pods, &pod().obj()),
        [70, 57]
    );
}

// least_allocated_test.go "resources requested, pods scheduled with resources".
#[test]
fn least_allocated_resources_requested_pods_scheduled() {
    let nodes = [
        node("node1").capacity(10000, 20000).obj(),
        node("node2").capacity(10000, 20000).obj(),
    ];
    let pods = [
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node2").req(3000, 5000).obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &pods, &two_container_pod()),
        [57, 45]
    );
}

// least_allocated_test.go "resources requested, pods scheduled with resources, differently sized nodes".
#[test]
fn least_allocated_resources_requested_differently_sized() {
    let nodes = [
        node("node1").capacity(10000, 20000).obj(),
        node("node2").capacity(10000, 50000).obj(),
    ];
    let pods = [
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node2").req(3000, 5000).obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &pods, &two_container_pod()),
        [57, 60]
    );
}

// least_allocated_test.go "requested resources exceed node capacity".
#[test]
fn least_allocated_requested_exceeds_capacity() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(4000, 10000).obj(),
    ];
    let pods = [
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node2").req(3000, 5000).obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &pods, &pod().req(3000, 0).obj()),
        [50, 25]
    );
}

// least_allocated_test.go "zero node resources, pods scheduled with resources".
#[test]
fn least_allocated_zero_node_resources() {
    let nodes = [node("node1").pods(110).obj(), node("node2").pods(110).obj()];
    let pods = [
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node2").req(3000, 5000).obj(),
    ];
    assert_eq!(
        scores(&least(defaults()), &nodes, &pods, &pod().obj()),
        [0, 0]
    );
}

// least_allocated_test.go "nothing scheduled, resources requested with different weight on CPU
// and memory, differently sized nodes".
#[test]
fn least_allocated_weighted_resources() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(6000, 10000).obj(),
    ];
    let cfg = least(vec![rs("memory", 2), rs("cpu", 1)]);
    assert_eq!(scores(&cfg, &nodes, &[], &two_container_pod()), [41, 50]);
}

// least_allocated_test.go "resource with negative weight", "resource with zero weight",
// "resource weight larger than MaxNodeScore": rejected by args validation.
#[test]
fn least_allocated_invalid_weights_are_config_errors() {
    for w in [-1, 0, 101] {
        let cfg = least(vec![rs("memory", 1), rs("cpu", w)]);
        let p = Profile::from_config(&cfg).unwrap();
        assert_eq!(Scheduler::new(p, 1).unwrap_err().code(), "E_INVALID_CONFIG");
    }
}

// least_allocated_test.go "bypass extended resource if the pod does not request".
#[test]
fn least_allocated_bypasses_unrequested_extended_resource() {
    let nodes = [
        node("node1").capacity(6000, 10000).obj(),
        node("node2")
            .capacity(6000, 10000)
            .scalar("example.com/gpu", 4)
            .obj(),
    ];
    let cfg = least(vec![
        rs("cpu", 1),
        rs("memory", 1),
        rs("example.com/gpu", 1),
    ]);
    assert_eq!(scores(&cfg, &nodes, &[], &two_container_pod()), [50, 50]);
}

// least_allocated_test.go "honor extended resource if the pod requests": node1 has 4 of the
// resource, node2 10; the pod asks 2.
#[test]
fn least_allocated_honors_requested_extended_resource() {
    let nodes = [
        node("node1")
            .capacity(6000, 10000)
            .scalar("example.com/gpu", 4)
            .obj(),
        node("node2")
            .capacity(6000, 10000)
            .scalar("example.com/gpu", 10)
            .obj(),
    ];
    let cfg = least(vec![
        rs("cpu", 1),
        rs("memory", 1),
        rs("example.com/gpu", 1),
    ]);
    let mut p = two_container_pod();
    p.containers[0]
        .requests
        .scalar
        .insert("example.com/gpu".into(), 2);
    assert_eq!(scores(&cfg, &nodes, &[], &p), [50, 60]);
}

fn most(resources: Vec<ResourceSpec>) -> ProfileConfig {
    fit_profile(ScoringStrategy {
        kind: ScoringStrategyType::MostAllocated,
        resources,
        shape: vec![],
    })
}

// most_allocated_test.go TestMostAllocatedScoringStrategy.
#[test]
fn most_allocated_table() {
    let small = || {
        [
            node("node1").capacity(4000, 10000).obj(),
            node("node2").capacity(4000, 10000).obj(),
        ]
    };
    // "nothing scheduled, nothing requested"
    assert_eq!(
        scores(&most(defaults()), &small(), &[], &pod().obj()),
        [0, 0]
    );
    // "nothing scheduled, resources requested, differently sized nodes"
    let sized = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(6000, 10000).obj(),
    ];
    assert_eq!(
        scores(&most(defaults()), &sized, &[], &two_container_pod()),
        [62, 50]
    );
    // "no resources requested, pods scheduled with resources"
    let big = || {
        [
            node("node1").capacity(10000, 20000).obj(),
            node("node2").capacity(10000, 20000).obj(),
        ]
    };
    let pods = [
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node2").req(3000, 0).obj(),
        pod().node("node2").req(3000, 5000).obj(),
    ];
    assert_eq!(
        scores(&most(defaults()), &big(), &pods, &pod().obj()),
        [30, 42]
    );
    // "resources requested, pods scheduled with resources"
    let pods = [
        pod().node("node1").req(3000, 0).obj(),
        pod().node("node2").req(3000, 5000).obj(),
    ];
    assert_eq!(
        scores(&most(defaults()), &big(), &pods, &two_container_pod()),
        [42, 55]
    );
    // "resources requested equal node capacity"
    let eq = [
        node("node1").capacity(5000, 10000).obj(),
        node("node2").capacity(10000, 9000).obj(),
    ];
    let p = pod().req(2000, 4000).req(3000, 5000).obj();
    assert_eq!(scores(&most(defaults()), &eq, &[], &p), [95, 75]);
    // "nothing scheduled, resources requested, differently sized nodes" (memory weight 2)
    let cfg = most(vec![rs("memory", 2), rs("cpu", 1)]);
    assert_eq!(scores(&cfg, &sized, &[], &two_container_pod()), [58, 50]);
}

// most_allocated_test.go "no resources requested, pods scheduled, nonzero request for resource":
// containers without requests count as 100m / 200Mi, capped at allocatable.
#[test]
fn most_allocated_non_zero_requests() {
    let nodes = [
        node("node1").capacity(250, 1000 << 20).obj(),
        node("node2").capacity(250, 1000 << 20).obj(),
    ];
    let pods = [
        pod().node("node1").container("c").obj(),
        pod().node("node1").container("c").obj(),
    ];
    assert_eq!(
        scores(
            &most(defaults()),
            &nodes,
            &pods,
            &pod().container("c").obj()
        ),
        [80, 30]
    );
}

// most_allocated_test.go "bypass extended resource if the pod does not request", "honor
// extended resource if the pod request", "if the node doesn't have a resource".
#[test]
fn most_allocated_extended_resources() {
    let ext = || vec![rs("cpu", 1), rs("memory", 1), rs("example.com/aaa", 1)];
    let nodes = [
        node("node1").capacity(6000, 10000).obj(),
        node("node2")
            .capacity(6000, 10000)
            .scalar("example.com/aaa", 4)
            .obj(),
    ];
    assert_eq!(
        scores(&most(ext()), &nodes, &[], &two_container_pod()),
        [50, 50]
    );
    let nodes = [
        node("node1")
            .capacity(6000, 10000)
            .scalar("example.com/aaa", 4)
            .obj(),
        node("node2")
            .capacity(6000, 10000)
            .scalar("example.com/aaa", 10)
            .obj(),
    ];
    let mut p = pod().req(3000, 5000).obj();
    p.containers[0]
        .requests
        .scalar
        .insert("example.com/aaa".into(), 2);
    assert_eq!(scores(&most(ext()), &nodes, &[], &p), [50, 40]);
    let nodes = [
        node("node1").capacity(6000, 10000).obj(),
        node("node2")
            .capacity(6000, 10000)
            .scalar("example.com/aaa", 4)
            .obj(),
    ];
    let cfg = most(vec![
        rs("example.com/aaa", 2),
        rs("cpu", 1),
        rs("memory", 1),
    ]);
    assert_eq!(
        scores(&cfg, &nodes, &[], &pod().req(3000, 4000).obj()),
        [45, 45]
    );
}

// requested_to_capacity_ratio.go with the shape {0,0},{100,10} (bin packing) scaled ×10.
#[test]
fn requested_to_capacity_ratio_follows_the_shape() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(6000, 10000).obj(),
    ];
    let cfg = fit_profile(ScoringStrategy {
        kind: ScoringStrategyType::RequestedToCapacityRatio,
        resources: defaults(),
        shape: vec![
            UtilizationShapePoint {
                utilization: 0,
                score: 0,
            },
            UtilizationShapePoint {
                utilization: 100,
                score: 10,
            },
        ],
    });
    // node1: cpu 75 → 75, mem 50 → 50: round(125/2) = 63; node2: 50, 50 → 50.
    assert_eq!(scores(&cfg, &nodes, &[], &two_container_pod()), [63, 50]);
}

fn balanced() -> ProfileConfig {
    only_score("NodeResourcesBalancedAllocation")
}

/// balanced_allocation_test.go `cpuOnly` (memory "0" set explicitly).
fn cpu_only(node_name: &str) -> PodSpec {
    pod().node(node_name).req(1000, 0).req(2000, 0).obj()
}

/// balanced_allocation_test.go `cpuAndMemory`.
fn cpu_and_memory(node_name: Option<&str>) -> PodSpec {
    let mut p = pod().req(1000, 2000).req(2000, 3000);
    if let Some(n) = node_name {
        p = p.node(n);
    }
    p.obj()
}

// balanced_allocation_test.go "nothing scheduled, nothing requested, skip in PreScore".
#[test]
fn balanced_best_effort_pod_is_skipped() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(4000, 10000).obj(),
    ];
    let mut s = scheduler(&balanced(), &nodes, &[]);
    let e = s.explain(&pod().obj()).unwrap();
    assert!(e.nodes.iter().all(|n| n.scores[0].skipped));
}

// balanced_allocation_test.go "nothing scheduled, resources requested, differently sized nodes".
#[test]
fn balanced_differently_sized_nodes() {
    let nodes = [
        node("node1").capacity(4000, 10000).obj(),
        node("node2").capacity(6000, 10000).obj(),
    ];
    assert_eq!(
        scores(&balanced(), &nodes, &[], &cpu_and_memory(None)),
        [87, 100]
    );
}

// balanced_allocation_test.go "resources requested, pods scheduled with resources".
#[test]
fn balanced_pods_scheduled_with_resources() {
    let nodes = [
        node("node1").capacity(10000, 20000).obj(),
        node("node2").capacity(10000, 20000).obj(),
    ];
    let pods = [cpu_only("node1"), cpu_and_memory(Some("node2"))];
    assert_eq!(
        scores(&balanced(), &nodes, &pods, &cpu_and_memory(None)),
        [82, 95]
    );
}

// balanced_allocation_test.go "resources requested, pods scheduled with resources, differently sized nodes".
#[test]
fn balanced_pods_scheduled_differently_sized() {
    let nodes = [
        node("node1").capacity(10000, 20000).obj(),
        node("node2").capacity(10000, 50000).obj(),
    ];
    let pods = [cpu_only("node1"), cpu_and_memory(Some("node2"))];
    assert_eq!(
        scores(&balanced(), &nodes, &pods, &cpu_and_memory(None)),
        [82, 80]
    );
}

// balanced_allocation_test.go "requested resources at node capacity".
#[test]
fn balanced_requested_at_capacity() {
    let nodes = [
        node("node1").capacity(6000, 10000).obj(),
        node("node2").capacity(6000, 10000).obj(),
    ];
    let pods = [cpu_only("node1"), cpu_and_memory(Some("node2"))];
    let mut p = cpu_only("node1");
    p.node_name = None;
    assert_eq!(scores(&balanced(), &nodes, &pods, &p), [50, 75]);
}

fn balanced_with_gpu() -> ProfileConfig {
    let mut cfg = balanced();
    cfg.plugin_config
        .push(PluginArgs::NodeResourcesBalancedAllocation(vec![
            rs("cpu", 1),
            rs("memory", 1),
            rs("nvidia.com/gpu", 1),
        ]));
    cfg
}

// balanced_allocation_test.go "include scalar resource on a node for balanced resource allocation".
#[test]
fn balanced_includes_scalar_resource() {
    let nodes = [
        node("node1")
            .capacity(3500, 40000)
            .scalar("nvidia.com/gpu", 8)
            .obj(),
        node("node2")
            .capacity(3500, 40000)
            .scalar("nvidia.com/gpu", 8)
            .obj(),
    ];
    let mut gpu_pod = pod().node("node1").req(1000, 2000).req(2000, 3000).obj();
    gpu_pod.containers[1]
        .requests
        .scalar
        .insert("nvidia.com/gpu".into(), 3);
    let pods = [cpu_and_memory(Some("node2")), gpu_pod];
    // The incoming pod: memory "0" and one GPU, no cpu request.
    let mut c = Container {
        has_memory_request: true,
        ..Container::default()
    };
    c.requests.scalar.insert("nvidia.com/gpu".into(), 1);
    let incoming = PodSpec {
        containers: vec![c],
        ..pod().obj()
    };
    assert_eq!(
        scores(&balanced_with_gpu(), &nodes, &pods, &incoming),
        [70, 65]
    );
}

// balanced_allocation_test.go "node without the scalar resource should skip the scalar resource".
#[test]
fn balanced_skips_scalar_resource_the_pod_does_not_request() {
    let nodes = [
        node("node1")
            .capacity(3500, 40000)
            .scalar("nvidia.com/gpu", 8)
            .obj(),
        node("node2").capacity(3500, 40000).obj(),
    ];
    assert_eq!(
        scores(&balanced_with_gpu(), &nodes, &[], &cpu_and_memory(None)),
        [63, 63]
    );
}

// fit_test.go TestEnoughRequests: reasons of NodeResourcesFit, in fit.go order.
#[test]
fn fit_filter_reasons() {
    let n = |cpu_used: i64, mem_used: i64| {
        (
            node("node1").capacity(10, 20).pods(32).obj(),
            pod().node("node1").req(cpu_used, mem_used).obj(),
        )
    };
    type Case = (PodSpec, (i64, i64), Option<Vec<&'static str>>);
    let cases: Vec<Case> = vec![
        // "no resources requested always fits"
        (pod().obj(), (10, 20), None),
        // "too many resources fails"
        (
            pod().req(1, 1).obj(),
            (10, 20),
            Some(vec!["Insufficient cpu", "Insufficient memory"]),
        ),
        // "equal edge case"
        (pod().req(5, 19).obj(), (5, 1), None),
        // "one resource memory fits"
        (
            pod().req(2, 1).obj(),
            (9, 5),
            Some(vec!["Insufficient cpu"]),
        ),
        // "one resource cpu fits"
        (
            pod().req(1, 2).obj(),
            (5, 19),
            Some(vec!["Insufficient memory"]),
        ),
    ];
    for (p, used, want) in cases {
        let (nd, existing) = n(used.0, used.1);
        let got = filter_of("NodeResourcesFit", &[nd], &[existing], &p);
        let want = want.map(|w| w.into_iter().map(String::from).collect::<Vec<_>>());
        assert_eq!(got, vec![want], "pod {:?} used {used:?}", p.containers);
    }
}

// fit_test.go "extended resource capacity enforced" / "extended resource allocatable admits".
#[test]
fn fit_filter_extended_resources() {
    let nd = node("node1")
        .capacity(10, 20)
        .pods(32)
        .scalar("example.com/aaa", 5)
        .obj();
    let used = pod().node("node1").req_scalar("example.com/aaa", 2).obj();
    let fits = pod().req_scalar("example.com/aaa", 3).obj();
    assert_eq!(
        filter_of(
            "NodeResourcesFit",
            std::slice::from_ref(&nd),
            std::slice::from_ref(&used),
            &fits
        ),
        vec![None]
    );
    let too_many = pod().req_scalar("example.com/aaa", 4).obj();
    assert_eq!(
        filter_of("NodeResourcesFit", &[nd], &[used], &too_many),
        vec![Some(vec!["Insufficient example.com/aaa".to_string()])]
    );
}

// fit_test.go "too many pods" (TestNotEnoughRequests).
#[test]
fn fit_filter_too_many_pods() {
    let nd = node("node1").capacity(10, 20).pods(1).obj();
    let used = pod().node("node1").obj();
    assert_eq!(
        filter_of("NodeResourcesFit", &[nd], &[used], &pod().req(1, 1).obj()),
        vec![Some(vec!["Too many pods".to_string()])]
    );
}

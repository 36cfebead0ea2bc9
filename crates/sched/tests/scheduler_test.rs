//! End-to-end behaviour of the scheduling cycle: FailedScheduling messages, explain, round robin,
//! batches, assume/bind/forget, node updates, error codes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;

fn nodes(n: usize, milli_cpu: i64) -> Vec<NodeSpec> {
    (0..n)
        .map(|i| {
            node(&format!("n{i}"))
                .capacity(milli_cpu, 32 << 30)
                .label("kubernetes.io/hostname", &format!("n{i}"))
                .obj()
        })
        .collect()
}

#[test]
fn fit_error_message_counts_and_sorts_reasons() {
    let mut all = nodes(3, 1000);
    all.push(
        node("t1")
            .capacity(8000, 32 << 30)
            .taint("dedicated", "gpu", TaintEffect::NoSchedule)
            .obj(),
    );
    all.push(
        node("t2")
            .capacity(8000, 32 << 30)
            .taint("dedicated", "gpu", TaintEffect::NoSchedule)
            .obj(),
    );
    let mut s = scheduler(&ProfileConfig::default(), &all, &[]);
    let placed = s.schedule_one(&pod().req(2000, 1 << 20).obj()).unwrap();
    assert_eq!(placed.node, None);
    assert_eq!(
        placed.message.as_deref(),
        Some(
            "0/5 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}, 3 Insufficient cpu. \
             preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, \
             3 No preemption victims found for incoming pod."
        )
    );
}

#[test]
fn a_pod_fitting_nowhere_lists_every_short_resource() {
    let all = vec![node("n0").capacity(1000, 1 << 20).pods(1).obj()];
    let existing = vec![pod().node("n0").obj()];
    let mut s = scheduler(&only_filter("NodeResourcesFit"), &all, &existing);
    let placed = s.schedule_one(&pod().req(2000, 2 << 20).obj()).unwrap();
    assert_eq!(
        placed.message.as_deref(),
        Some(
            "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods."
        )
    );
}

#[test]
fn batch_scheduling_assumes_each_pod_before_the_next() {
    let mut s = scheduler(&ProfileConfig::default(), &nodes(2, 1000), &[]);
    let pods: Vec<PodSpec> = (0..5)
        .map(|i| pod().name(&format!("p{i}")).req(400, 1 << 20).obj())
        .collect();
    let results = s.schedule_batch(&pods);
    let placed: Vec<Option<String>> = results
        .iter()
        .map(|r| r.as_ref().unwrap().node.clone())
        .collect();
    // LeastAllocated + balanced spread 2 per node, the fifth fits nowhere.
    assert_eq!(placed.iter().filter(|p| p.is_some()).count(), 4);
    assert!(placed[4].is_none());
    assert_eq!(
        placed.iter().filter(|p| p.as_deref() == Some("n0")).count(),
        2
    );
    assert_eq!(s.cluster().num_pods(), 4);
    // Forgetting an assumed pod frees its room.
    let first = results[0].as_ref().unwrap();
    let (ns, name) = first.pod.split_once('/').unwrap();
    s.remove_pod(ns, name).unwrap();
    let again = s.schedule_one(&pods[4]).unwrap();
    assert_eq!(again.node, first.node);
    s.bind_pod("default", "p4").unwrap();
}

#[test]
fn explain_reports_every_filter_and_score() {
    let mut all = nodes(2, 4000);
    all.push(
        node("tainted")
            .capacity(4000, 32 << 30)
            .taint("k", "v", TaintEffect::NoSchedule)
            .obj(),
    );
    let mut s = scheduler(
        &ProfileConfig::default(),
        &all,
        &[pod().node("n0").req(2000, 1 << 30).obj()],
    );
    let e = s.explain(&pod().req(1000, 1 << 30).obj()).unwrap();
    assert_eq!(e.nodes.len(), 3);
    let tainted = e.nodes.iter().find(|n| n.node == "tainted").unwrap();
    assert!(!tainted.feasible);
    let tt = tainted
        .filters
        .iter()
        .find(|f| f.plugin == "TaintToleration")
        .unwrap();
    assert_eq!(tt.code, "UnschedulableAndUnresolvable");
    assert_eq!(tt.reasons, ["node(s) had untolerated taint {k: v}"]);
    let skip = tainted
        .filters
        .iter()
        .find(|f| f.plugin == "InterPodAffinity")
        .unwrap();
    assert_eq!(skip.code, "Skip");
    let n1 = e.nodes.iter().find(|n| n.node == "n1").unwrap();
    assert!(n1.feasible);
    let fit = n1
        .scores
        .iter()
        .find(|p| p.plugin == "NodeResourcesFit")
        .unwrap();
    // cpu (4000-1000)/4000 = 75, memory (32Gi-1Gi)/32Gi = 96 → 85.
    assert_eq!((fit.raw, fit.normalized, fit.weighted), (85, 85, 85));
    let taint = n1
        .scores
        .iter()
        .find(|p| p.plugin == "TaintToleration")
        .unwrap();
    assert_eq!(
        (taint.raw, taint.normalized, taint.weight, taint.weighted),
        (0, 100, 3, 300)
    );
    assert_eq!(n1.total, Some(n1.scores.iter().map(|p| p.weighted).sum()));
    assert_eq!(e.chosen.as_deref(), Some("n1"));
    // Explaining changes nothing.
    assert_eq!(s.cluster().num_pods(), 1);
    let placed = s.schedule_one(&pod().req(1000, 1 << 30).obj()).unwrap();
    assert_eq!(placed.node.as_deref(), Some("n1"));
}

#[test]
fn round_robin_start_advances_over_the_node_list() {
    // 200 nodes: the adaptive percentage keeps 100 feasible nodes (minimum) and the next cycle
    // starts after them.
    let mut s = scheduler(&ProfileConfig::default(), &nodes(200, 4000), &[]);
    let e = s.explain(&pod().req(100, 1 << 20).obj()).unwrap();
    assert_eq!(e.num_feasible_nodes_to_find, 100);
    assert_eq!(e.nodes.iter().filter(|n| n.examined).count(), 100);
    let first = s.schedule_one(&pod().req(100, 1 << 20).obj()).unwrap();
    assert_eq!(first.evaluated_nodes, 100);
    let e = s.explain(&pod().req(100, 1 << 20).obj()).unwrap();
    let examined: Vec<&str> = e
        .nodes
        .iter()
        .filter(|n| n.examined)
        .map(|n| n.node.as_str())
        .collect();
    assert!(
        examined.contains(&"n150"),
        "second window starts at node 100"
    );
    assert!(!examined.contains(&"n50"));
}

#[test]
fn ties_are_broken_reproducibly_from_the_seed() {
    let run = |seed| {
        let mut s = Scheduler::new(Profile::default_profile(), seed).unwrap();
        for n in nodes(10, 4000) {
            s.upsert_node(&n).unwrap();
        }
        (0..10)
            .map(|i| {
                s.schedule_one(&pod().name(&format!("x{i}")).obj())
                    .unwrap()
                    .node
                    .unwrap()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(1));
    let spread: std::collections::BTreeSet<String> = run(3).into_iter().collect();
    assert!(spread.len() > 1);
}

#[test]
fn node_updates_and_removals_take_effect() {
    let mut s = scheduler(
        &ProfileConfig::default(),
        &nodes(1, 1000),
        &[pod().name("a").node("n0").req(500, 1).obj()],
    );
    let mut n = nodes(1, 1000).remove(0);
    n.unschedulable = true;
    s.upsert_node(&n).unwrap();
    let placed = s.schedule_one(&pod().obj()).unwrap();
    assert_eq!(
        placed
            .message
            .as_deref()
            .map(|m| m.split('.').next().unwrap_or("")),
        Some("0/1 nodes are available: 1 node(s) were unschedulable")
    );
    s.remove_node("n0").unwrap();
    assert_eq!(s.cluster().num_pods(), 0);
    let placed = s.schedule_one(&pod().obj()).unwrap();
    assert_eq!(
        placed.message.as_deref(),
        Some("no nodes available to schedule pods")
    );
}

#[test]
fn errors_have_stable_codes() {
    let mut s = scheduler(&ProfileConfig::default(), &nodes(1, 1000), &[]);
    assert_eq!(s.remove_node("nope").unwrap_err().code(), "E_UNKNOWN_NODE");
    assert_eq!(
        s.remove_pod("default", "nope").unwrap_err().code(),
        "E_UNKNOWN_POD"
    );
    assert_eq!(
        s.bind_pod("default", "nope").unwrap_err().code(),
        "E_UNKNOWN_POD"
    );
    assert_eq!(
        s.add_pod(&pod().node("nope").obj()).unwrap_err().code(),
        "E_UNKNOWN_NODE"
    );
    assert_eq!(
        s.add_pod(&pod().obj()).unwrap_err().code(),
        "E_INVALID_FIELD"
    );
    assert_eq!(
        s.assume_pod(&pod().obj(), "nope").unwrap_err().code(),
        "E_UNKNOWN_NODE"
    );
    let p = pod().name("dup").node("n0").obj();
    s.add_pod(&p).unwrap();
    assert_eq!(s.schedule_one(&p).unwrap_err().code(), "E_DUPLICATE_POD");
    let bad = pod()
        .pod_affinity("zone", sel_expr("a", SelectorOperator::In, &[]))
        .obj();
    assert_eq!(
        s.schedule_one(&bad).unwrap_err().code(),
        "E_INVALID_SELECTOR"
    );
    let bad_spread = pod()
        .spread(0, "zone", WhenUnsatisfiable::DoNotSchedule, None)
        .obj();
    assert_eq!(
        s.explain(&bad_spread).unwrap_err().code(),
        "E_INVALID_FIELD"
    );
    assert_eq!(
        s.upsert_node(&NodeSpec::default()).unwrap_err().code(),
        "E_INVALID_FIELD"
    );
}

#[test]
fn disabled_plugins_do_not_run() {
    let cfg = ProfileConfig {
        plugins: PluginsConfig {
            multi_point: PluginSet {
                enabled: vec![],
                disabled: vec![PluginRef::new("TaintToleration")],
            },
            ..PluginsConfig::default()
        },
        ..ProfileConfig::default()
    };
    let all = vec![node("t")
        .capacity(1000, 1 << 30)
        .taint("k", "v", TaintEffect::NoSchedule)
        .obj()];
    let mut s = scheduler(&cfg, &all, &[]);
    let placed = s.schedule_one(&pod().obj()).unwrap();
    assert_eq!(placed.node.as_deref(), Some("t"));
}

#[test]
fn pod_anti_affinity_spreads_a_batch_one_per_node() {
    let mut s = scheduler(&ProfileConfig::default(), &nodes(3, 4000), &[]);
    let mk = |i: usize| {
        pod()
            .name(&format!("w{i}"))
            .label("app", "web")
            .pod_anti_affinity("kubernetes.io/hostname", sel(&[("app", "web")]))
            .obj()
    };
    let placed: Vec<Option<String>> = (0..4)
        .map(|i| s.schedule_one(&mk(i)).unwrap().node)
        .collect();
    let set: std::collections::BTreeSet<_> = placed[..3].iter().flatten().collect();
    assert_eq!(set.len(), 3);
    assert!(placed[3].is_none());
}

#[test]
fn hard_topology_spread_keeps_zones_within_max_skew() {
    let all: Vec<NodeSpec> = (0..6)
        .map(|i| {
            node(&format!("n{i}"))
                .capacity(8000, 32 << 30)
                .label("topology.kubernetes.io/zone", &format!("z{}", i % 3))
                .label("kubernetes.io/hostname", &format!("n{i}"))
                .obj()
        })
        .collect();
    let mut s = scheduler(&ProfileConfig::default(), &all, &[]);
    let mut per_zone = [0usize; 3];
    for i in 0..30 {
        let p = pod()
            .name(&format!("s{i}"))
            .label("app", "db")
            .spread(
                1,
                "topology.kubernetes.io/zone",
                WhenUnsatisfiable::DoNotSchedule,
                Some(sel(&[("app", "db")])),
            )
            .obj();
        let n = s.schedule_one(&p).unwrap().node.unwrap();
        let idx: usize = n[1..].parse().unwrap();
        per_zone[idx % 3] += 1;
        let (min, max) = (
            per_zone.iter().min().unwrap(),
            per_zone.iter().max().unwrap(),
        );
        assert!(max - min <= 1, "{per_zone:?}");
    }
}

//! SchedulingBasic throughput (test/integration/scheduler_perf misc/performance-config.yaml):
//! 5000 nodes (4 CPU / 32Gi / 110 pods), 10000 pods (100m / 500Mi). Run with
//! `cargo test --release -p kubewasm-sched -- --ignored --nocapture`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;
use std::time::Instant;

fn basic_nodes(n: usize) -> Vec<NodeSpec> {
    (0..n)
        .map(|i| {
            node(&format!("node-{i}"))
                .capacity(4000, 32 << 30)
                .pods(110)
                .label("kubernetes.io/hostname", &format!("node-{i}"))
                .label("topology.kubernetes.io/zone", &format!("zone-{}", i % 3))
                .obj()
        })
        .collect()
}

fn run(label: &str, pods: Vec<PodSpec>, init: Vec<PodSpec>) {
    let mut s = Scheduler::with_default_profile(7);
    for n in basic_nodes(5000) {
        s.upsert_node(&n).unwrap();
    }
    for p in &init {
        let r = s.schedule_one(p).unwrap();
        assert!(r.node.is_some(), "{r:?}");
    }
    let start = Instant::now();
    let results = s.schedule_batch(&pods);
    let secs = start.elapsed().as_secs_f64();
    let placed = results
        .iter()
        .filter(|r| r.as_ref().is_ok_and(|p| p.node.is_some()))
        .count();
    println!(
        "{label}: {} pods in {secs:.3}s = {:.0} pods/s ({placed} placed)",
        pods.len(),
        pods.len() as f64 / secs
    );
    assert_eq!(placed, pods.len());
}

fn basic_pod(i: usize, prefix: &str) -> PodSpec {
    pod()
        .name(&format!("{prefix}-{i}"))
        .req(100, 500 << 20)
        .obj()
}

#[test]
#[ignore]
fn scheduling_basic_5000_nodes_10000_pods() {
    let init = (0..1000).map(|i| basic_pod(i, "init")).collect();
    let pods = (0..10000).map(|i| basic_pod(i, "measure")).collect();
    run("SchedulingBasic/5000Nodes_10000Pods", pods, init);
}

#[test]
#[ignore]
fn topology_spreading_5000_nodes_5000_pods() {
    let mk = |i: usize, prefix: &str| {
        pod()
            .name(&format!("{prefix}-{i}"))
            .label("color", "blue")
            .req(100, 500 << 20)
            .spread(
                5,
                "topology.kubernetes.io/zone",
                WhenUnsatisfiable::DoNotSchedule,
                Some(sel(&[("color", "blue")])),
            )
            .obj()
    };
    let init = (0..5000).map(|i| mk(i, "init")).collect();
    let pods = (0..5000).map(|i| mk(i, "measure")).collect();
    run("TopologySpreading/5000Nodes_5000Pods", pods, init);
}

#[test]
#[ignore]
fn preferred_topology_spreading_5000_nodes_5000_pods() {
    let mk = |i: usize, prefix: &str| {
        pod()
            .name(&format!("{prefix}-{i}"))
            .label("color", "blue")
            .req(100, 500 << 20)
            .spread(
                5,
                "topology.kubernetes.io/zone",
                WhenUnsatisfiable::ScheduleAnyway,
                Some(sel(&[("color", "blue")])),
            )
            .obj()
    };
    let init = (0..5000).map(|i| mk(i, "init")).collect();
    let pods = (0..5000).map(|i| mk(i, "measure")).collect();
    run("PreferredTopologySpreading/5000Nodes_5000Pods", pods, init);
}

#[test]
#[ignore]
fn pod_anti_affinity_5000_nodes_2000_pods() {
    let mk = |i: usize, prefix: &str| {
        pod()
            .name(&format!("{prefix}-{i}"))
            .label("color", "green")
            .req(100, 500 << 20)
            .pod_anti_affinity("kubernetes.io/hostname", sel(&[("color", "green")]))
            .obj()
    };
    let init = (0..1000).map(|i| mk(i, "init")).collect();
    let pods = (0..2000).map(|i| mk(i, "measure")).collect();
    run("SchedulingPodAntiAffinity/5000Nodes_2000Pods", pods, init);
}

#[test]
#[ignore]
fn preferred_pod_affinity_5000_nodes_5000_pods() {
    let mk = |i: usize, prefix: &str| {
        pod()
            .name(&format!("{prefix}-{i}"))
            .label("color", "red")
            .req(100, 500 << 20)
            .preferred_pod_affinity(1, "kubernetes.io/hostname", sel(&[("color", "red")]))
            .obj()
    };
    let init = (0..5000).map(|i| mk(i, "init")).collect();
    let pods = (0..5000).map(|i| mk(i, "measure")).collect();
    run(
        "SchedulingPreferredPodAffinity/5000Nodes_5000Pods",
        pods,
        init,
    );
}

/// Profile variants of SchedulingBasic, to see where the time goes.
#[test]
#[ignore]
fn scheduling_basic_cost_breakdown() {
    let variants: Vec<(&str, ProfileConfig)> = vec![
        ("default", ProfileConfig::default()),
        (
            "no score plugins",
            ProfileConfig {
                plugins: PluginsConfig {
                    score: PluginSet {
                        enabled: vec![],
                        disabled: vec![PluginRef::new("*")],
                    },
                    ..PluginsConfig::default()
                },
                ..ProfileConfig::default()
            },
        ),
        (
            "no filter plugins",
            ProfileConfig {
                plugins: PluginsConfig {
                    filter: PluginSet {
                        enabled: vec![],
                        disabled: vec![PluginRef::new("*")],
                    },
                    ..PluginsConfig::default()
                },
                ..ProfileConfig::default()
            },
        ),
    ];
    for (label, cfg) in variants {
        let mut s = Scheduler::new(Profile::from_config(&cfg).unwrap(), 7).unwrap();
        for n in basic_nodes(5000) {
            s.upsert_node(&n).unwrap();
        }
        let pods: Vec<PodSpec> = (0..10000).map(|i| basic_pod(i, "m")).collect();
        let start = Instant::now();
        let results = s.schedule_batch(&pods);
        let secs = start.elapsed().as_secs_f64();
        assert!(results.iter().all(|r| r.is_ok()));
        println!("{label}: {:.0} pods/s", pods.len() as f64 / secs);
    }
}

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

/// Memory for 5000 nodes + 150,000 pods (target ≤ 200 MB).
#[test]
#[ignore]
fn memory_5000_nodes_150000_pods() {
    let before = rss_mb();
    let mut s = Scheduler::with_default_profile(7);
    for n in basic_nodes(5000) {
        s.upsert_node(&n).unwrap();
    }
    let start = Instant::now();
    for i in 0..150_000 {
        let p = pod()
            .name(&format!("p-{i}"))
            .label("app", &format!("app-{}", i % 500))
            .label("pod-template-hash", &format!("h{}", i % 1000))
            .node(&format!("node-{}", i % 5000))
            .req(10, 10 << 20)
            .obj();
        s.add_pod(&p).unwrap();
    }
    let after = rss_mb();
    println!(
        "5000 nodes + 150000 pods: {:.1} MB RSS growth ({:.1} MB total), added in {:.2}s",
        after - before,
        after,
        start.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore]
fn default_topology_spreading_5000_nodes_10000_pods() {
    let mk = |i: usize, prefix: &str| {
        let mut p = pod()
            .name(&format!("{prefix}-{i}"))
            .label("app", "svc")
            .req(100, 500 << 20)
            .obj();
        // What a Service selecting app=svc yields through helper.DefaultSelector.
        p.default_spread_selector = Some(sel(&[("app", "svc")]));
        p
    };
    let init = (0..5000).map(|i| mk(i, "init")).collect();
    let pods = (0..10000).map(|i| mk(i, "measure")).collect();
    run("DefaultTopologySpreading/5000Nodes_10000Pods", pods, init);
}

#[test]
#[ignore]
fn node_affinity_5000_nodes_10000_pods() {
    let mk = |i: usize, prefix: &str| {
        pod()
            .name(&format!("{prefix}-{i}"))
            .req(100, 500 << 20)
            .node_affinity_in("topology.kubernetes.io/zone", &["zone-0", "zone-1"])
            .obj()
    };
    let init = (0..5000).map(|i| mk(i, "init")).collect();
    let pods = (0..10000).map(|i| mk(i, "measure")).collect();
    run("SchedulingNodeAffinity/5000Nodes_10000Pods", pods, init);
}

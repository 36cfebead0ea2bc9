//! Property: the incrementally maintained indexes (matcher counts, per-domain counts, term
//! groups, compact node numbers, score caches) give the same explanation as a table rebuilt from
//! scratch with the same final nodes and pods.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    AddPod {
        node: usize,
        app: usize,
        anti: bool,
        cpu: i64,
    },
    RemovePod(usize),
    Relabel {
        node: usize,
        zone: usize,
    },
    Schedule {
        app: usize,
        spread: bool,
        anti: bool,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..6usize, 0..3usize, any::<bool>(), 0..800i64).prop_map(|(node, app, anti, cpu)| {
            Op::AddPod {
                node,
                app,
                anti,
                cpu,
            }
        }),
        (0..40usize).prop_map(Op::RemovePod),
        (0..6usize, 0..3usize).prop_map(|(node, zone)| Op::Relabel { node, zone }),
        (0..3usize, any::<bool>(), any::<bool>()).prop_map(|(app, spread, anti)| Op::Schedule {
            app,
            spread,
            anti
        }),
    ]
}

fn node_spec(i: usize, zone: usize) -> NodeSpec {
    node(&format!("n{i}"))
        .capacity(4000, 16 << 30)
        .label("kubernetes.io/hostname", &format!("n{i}"))
        .label("topology.kubernetes.io/zone", &format!("z{zone}"))
        .obj()
}

fn workload_pod(name: &str, app: usize, anti: bool, spread: bool, cpu: i64) -> PodSpec {
    let mut p = pod()
        .name(name)
        .label("app", &format!("a{app}"))
        .req(cpu, 1 << 20);
    if anti {
        p = p.pod_anti_affinity(
            "kubernetes.io/hostname",
            sel(&[("app", &format!("a{app}"))]),
        );
    }
    if spread {
        p = p.spread(
            1,
            "topology.kubernetes.io/zone",
            WhenUnsatisfiable::ScheduleAnyway,
            Some(sel(&[("app", &format!("a{app}"))])),
        );
    }
    p.preferred_pod_affinity(
        3,
        "topology.kubernetes.io/zone",
        sel(&[("app", &format!("a{app}"))]),
    )
    .obj()
}

/// Per node (sorted by name: relabelling a zone legitimately reorders the snapshot list).
type NodeSummary = (String, bool, Vec<(String, i64)>);

fn summary(e: &Explanation) -> Vec<NodeSummary> {
    let mut v: Vec<_> = e
        .nodes
        .iter()
        .map(|n| {
            (
                n.node.clone(),
                n.feasible,
                n.scores
                    .iter()
                    .map(|s| (s.plugin.to_string(), s.weighted))
                    .collect(),
            )
        })
        .collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn incremental_state_matches_a_rebuild(ops in proptest::collection::vec(op(), 1..40)) {
        let mut zones = [0usize, 1, 2, 0, 1, 2];
        let mut s = Scheduler::with_default_profile(1);
        for (i, z) in zones.iter().enumerate() {
            s.upsert_node(&node_spec(i, *z)).unwrap();
        }
        let mut live: Vec<PodSpec> = Vec::new();
        let mut counter = 0;
        for op in ops {
            match op {
                Op::AddPod { node, app, anti, cpu } => {
                    counter += 1;
                    let mut p = workload_pod(&format!("p{counter}"), app, anti, false, cpu);
                    p.node_name = Some(format!("n{node}"));
                    s.add_pod(&p).unwrap();
                    live.push(p);
                }
                Op::RemovePod(i) => {
                    if !live.is_empty() {
                        let p = live.remove(i % live.len());
                        s.remove_pod(&p.namespace, &p.name).unwrap();
                    }
                }
                Op::Relabel { node, zone } => {
                    zones[node] = zone;
                    s.upsert_node(&node_spec(node, zone)).unwrap();
                }
                Op::Schedule { app, spread, anti } => {
                    counter += 1;
                    let p = workload_pod(&format!("p{counter}"), app, anti, spread, 100);
                    let placed = s.schedule_one(&p).unwrap();
                    if let Some(n) = placed.node {
                        let mut bound = p.clone();
                        bound.node_name = Some(n);
                        live.push(bound);
                    }
                }
            }
        }
        let mut fresh = Scheduler::with_default_profile(1);
        for (i, z) in zones.iter().enumerate() {
            fresh.upsert_node(&node_spec(i, *z)).unwrap();
        }
        for p in &live {
            fresh.add_pod(p).unwrap();
        }
        for app in 0..3 {
            for (anti, spread) in [(false, false), (true, false), (false, true), (true, true)] {
                let probe = workload_pod("probe", app, anti, spread, 100);
                let a = summary(&s.explain(&probe).unwrap());
                let b = summary(&fresh.explain(&probe).unwrap());
                prop_assert_eq!(a, b);
            }
        }
    }
}

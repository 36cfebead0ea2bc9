//! DefaultPreemption behaviour (default_preemption_test.go TestSelectNodesForPreemption /
//! TestPickOneNodeForPreemption facts: minimal victims, lowest-priority node wins).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;

#[test]
fn evicts_the_minimal_set_of_lower_priority_pods() {
    let nodes = [node("n0").capacity(1000, 1 << 30).obj()];
    let pods = [
        pod().name("low1").priority(0).node("n0").req(400, 1).obj(),
        pod().name("low2").priority(1).node("n0").req(400, 1).obj(),
    ];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &pods);
    let placed = s
        .schedule_one(&pod().name("high").priority(10).req(500, 1).obj())
        .unwrap();
    assert_eq!(placed.node, None);
    assert_eq!(placed.nominated_node.as_deref(), Some("n0"));
    assert_eq!(placed.victims, ["default/low1"]);
    assert!(s.cluster().pod_by_key("default/low1").is_none());
    // The victim is gone: the pod now fits.
    let again = s
        .schedule_one(&pod().name("high2").priority(10).req(500, 1).obj())
        .unwrap();
    assert_eq!(again.node.as_deref(), Some("n0"));
}

#[test]
fn picks_the_node_with_the_lowest_priority_victims() {
    let nodes = [
        node("n0").capacity(1000, 1 << 30).obj(),
        node("n1").capacity(1000, 1 << 30).obj(),
    ];
    let pods = [
        pod().name("mid").priority(5).node("n0").req(1000, 1).obj(),
        pod().name("low").priority(1).node("n1").req(1000, 1).obj(),
    ];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &pods);
    let placed = s
        .schedule_one(&pod().name("high").priority(10).req(500, 1).obj())
        .unwrap();
    assert_eq!(placed.nominated_node.as_deref(), Some("n1"));
    assert_eq!(placed.victims, ["default/low"]);
}

#[test]
fn equal_or_higher_priority_pods_are_never_victims() {
    let nodes = [node("n0").capacity(1000, 1 << 30).obj()];
    let pods = [pod()
        .name("same")
        .priority(10)
        .node("n0")
        .req(1000, 1)
        .obj()];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &pods);
    let placed = s
        .schedule_one(&pod().name("high").priority(10).req(500, 1).obj())
        .unwrap();
    assert_eq!(placed.nominated_node, None);
    assert_eq!(
        placed.message.as_deref(),
        Some(
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: \
             1 No preemption victims found for incoming pod."
        )
    );
}

#[test]
fn preemption_policy_never_is_respected() {
    let nodes = [node("n0").capacity(1000, 1 << 30).obj()];
    let pods = [pod().name("low").priority(0).node("n0").req(1000, 1).obj()];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &pods);
    let mut p = pod().name("high").priority(10).req(500, 1).obj();
    p.preemption_never = true;
    let placed = s.schedule_one(&p).unwrap();
    assert_eq!(
        placed.message.as_deref(),
        Some("0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.")
    );
    assert!(s.cluster().pod_by_key("default/low").is_some());
}

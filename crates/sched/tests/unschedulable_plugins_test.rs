//! `Diagnosis.UnschedulablePlugins` on the placements of pods that fit no node: the plugins the
//! scheduling queue reads to tell which cluster events may make the pod schedulable. The first
//! two tests follow pkg/scheduler/schedule_one_test.go (TestSchedulerNoPhantomPodAfterDelete,
//! TestSchedulerFailedSchedulingReasons); the others the paths of findNodesThatFitPod.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;

// TestSchedulerNoPhantomPodAfterDelete: a host port taken by an assumed pod rejects the second
// pod through NodePorts alone; once the first pod is gone the second one fits.
#[test]
fn a_port_conflict_is_a_node_ports_rejection() {
    let nodes = [node("node1").capacity(4000, 32 << 30).obj()];
    let mut s = scheduler(&only_filter("NodePorts"), &nodes, &[]);
    let first = pod().name("foo").host_port(8080, Protocol::Tcp, "").obj();
    assert_eq!(
        s.schedule_one(&first).unwrap().node.as_deref(),
        Some("node1")
    );
    let second = pod().name("bar").host_port(8080, Protocol::Tcp, "").obj();
    let placed = s.schedule_one(&second).unwrap();
    assert_eq!(placed.node, None);
    assert_eq!(
        placed.message.as_deref(),
        Some(
            "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports."
        )
    );
    assert_eq!(placed.unschedulable_plugins, ["NodePorts"]);
    s.remove_pod("default", "foo").unwrap();
    let again = s.schedule_one(&second).unwrap();
    assert_eq!(again.node.as_deref(), Some("node1"));
    assert!(again.unschedulable_plugins.is_empty());
}

// TestSchedulerFailedSchedulingReasons: 100 nodes too small for the pod roll up into a short
// message, and NodeResourcesFit is the one rejecting plugin.
#[test]
fn every_node_short_of_resources_is_one_fit_rejection() {
    let nodes: Vec<NodeSpec> = (0..100)
        .map(|i| node(&format!("node{i}")).capacity(2, 100).pods(10).obj())
        .collect();
    let mut s = scheduler(&only_filter("NodeResourcesFit"), &nodes, &[]);
    let placed = s
        .schedule_one(&pod().name("bar").req(4, 500).obj())
        .unwrap();
    let message = placed.message.unwrap();
    assert_eq!(
        message,
        "0/100 nodes are available: 100 Insufficient cpu, 100 Insufficient memory."
    );
    assert!(message.len() <= 150, "message is too spammy: {message}");
    assert_eq!(placed.unschedulable_plugins, ["NodeResourcesFit"]);
}

// Each failing node adds the plugin of its first failing filter; the set is sorted by name.
#[test]
fn the_rejecting_plugins_of_every_node_are_collected() {
    let nodes = [
        node("small").capacity(4000, 1 << 20).obj(),
        node("gpu")
            .capacity(4000, 32 << 30)
            .taint("gpu", "true", TaintEffect::NoSchedule)
            .obj(),
        node("cordoned-1")
            .capacity(4000, 32 << 30)
            .unschedulable()
            .obj(),
        node("cordoned-2")
            .capacity(4000, 32 << 30)
            .unschedulable()
            .obj(),
    ];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &[]);
    let placed = s.schedule_one(&pod().req(100, 1 << 30).obj()).unwrap();
    assert_eq!(
        placed.message.as_deref(),
        Some(
            "0/4 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {gpu: true}, \
             2 node(s) were unschedulable. preemption: 0/4 nodes are available: \
             1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling."
        )
    );
    // DefaultPreemption runs at PostFilter: it writes the message's tail, it rejects nothing.
    assert_eq!(
        placed.unschedulable_plugins,
        ["NodeResourcesFit", "NodeUnschedulable", "TaintToleration"]
    );
}

// findNodesThatFitPod: a PreFilter rejection gives every node the same status, and
// AddPluginStatus records its plugin.
#[test]
fn a_pre_filter_rejection_names_its_plugin() {
    let nodes = [node("node1").obj(), node("node2").obj()];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &[]);
    let conflicting = NodeSelectorTerm {
        match_expressions: vec![],
        match_fields: vec![
            nreq("metadata.name", NodeSelectorOperator::In, &["node1"]),
            nreq("metadata.name", NodeSelectorOperator::In, &["node2"]),
        ],
    };
    let placed = s
        .schedule_one(&pod().required_node_terms(vec![conflicting]).obj())
        .unwrap();
    assert!(placed
        .message
        .unwrap()
        .starts_with("0/2 nodes are available: pod affinity terms conflict."));
    assert_eq!(placed.unschedulable_plugins, ["NodeAffinity"]);
}

// RunPreFilterPlugins returns the plugins whose PreFilterResult named nodes (pluginsWithNodes):
// they count as rejecting the pod, beside the filters that failed on the nodes left.
#[test]
fn a_pre_filter_node_name_result_counts_as_a_rejection() {
    let pinned = |name: &str| NodeSelectorTerm {
        match_expressions: vec![],
        match_fields: vec![nreq("metadata.name", NodeSelectorOperator::In, &[name])],
    };
    let nodes = [
        node("n0").capacity(1000, 32 << 30).obj(),
        node("n1").capacity(8000, 32 << 30).obj(),
        node("n2").capacity(8000, 32 << 30).obj(),
    ];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &[]);
    let placed = s
        .schedule_one(
            &pod()
                .name("pinned")
                .req(2000, 1 << 20)
                .required_node_terms(vec![pinned("n0")])
                .obj(),
        )
        .unwrap();
    let message = placed.message.unwrap();
    assert!(
        message.starts_with(
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."
        ),
        "{message}"
    );
    assert_eq!(
        placed.unschedulable_plugins,
        ["NodeAffinity", "NodeResourcesFit"]
    );
    // Also when the named nodes are all there are.
    let mut one = scheduler(
        &ProfileConfig::default(),
        &[node("n0").capacity(1000, 32 << 30).obj()],
        &[],
    );
    let placed = one
        .schedule_one(
            &pod()
                .req(2000, 1 << 20)
                .required_node_terms(vec![pinned("n0")])
                .obj(),
        )
        .unwrap();
    assert_eq!(
        placed.unschedulable_plugins,
        ["NodeAffinity", "NodeResourcesFit"]
    );
}

#[test]
fn a_missing_topology_label_is_a_pod_topology_spread_rejection() {
    let nodes = [node("unlabelled").capacity(4000, 32 << 30).obj()];
    let mut s = scheduler(&only_filter("PodTopologySpread"), &nodes, &[]);
    let placed = s
        .schedule_one(
            &pod()
                .label("app", "web")
                .spread(
                    1,
                    "topology.kubernetes.io/zone",
                    WhenUnsatisfiable::DoNotSchedule,
                    Some(sel(&[("app", "web")])),
                )
                .obj(),
        )
        .unwrap();
    assert_eq!(
        placed.message.as_deref(),
        Some("0/1 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label).")
    );
    assert_eq!(placed.unschedulable_plugins, ["PodTopologySpread"]);
}

// schedulePod: an empty cluster is ErrNoNodesAvailable, not a FitError, so no plugin is named
// and the pod backs off whatever event comes.
#[test]
fn no_nodes_names_no_plugin() {
    let mut s = scheduler(&ProfileConfig::default(), &[], &[]);
    let placed = s.schedule_one(&pod().obj()).unwrap();
    assert_eq!(
        placed.message.as_deref(),
        Some("no nodes available to schedule pods")
    );
    assert!(placed.unschedulable_plugins.is_empty());
}

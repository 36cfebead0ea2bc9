//! Ported from podtopologyspread/scoring_test.go (TestPodTopologySpreadScore) and
//! filtering_test.go (TestSingleConstraint, TestMultipleConstraints).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;
use WhenUnsatisfiable::*;

const HOST: &str = "kubernetes.io/hostname";

fn foo() -> Option<LabelSelector> {
    Some(sel_expr("foo", SelectorOperator::Exists, &[]))
}
fn bar() -> Option<LabelSelector> {
    Some(sel_expr("bar", SelectorOperator::Exists, &[]))
}

fn host_node(name: &str) -> NodeSpec {
    node(name).label(HOST, name).obj()
}
fn zone_node(name: &str, zone: &str) -> NodeSpec {
    node(name).label("zone", zone).label(HOST, name).obj()
}

/// `count` pods labelled `foo` on `node`.
fn foo_pods(node_name: &str, count: usize) -> Vec<PodSpec> {
    (0..count)
        .map(|_| pod().node(node_name).label("foo", "").obj())
        .collect()
}

/// Scores with PodTopologySpread; `failed` nodes exist but fail filtering (cordoned).
fn pts_scores(nodes: &[NodeSpec], failed: &[NodeSpec], pods: &[PodSpec], p: &PodSpec) -> Vec<i64> {
    let mut cfg = only_score("PodTopologySpread");
    cfg.plugins
        .filter
        .enabled
        .push(PluginRef::new("NodeUnschedulable"));
    let mut all: Vec<NodeSpec> = nodes.to_vec();
    all.extend(failed.iter().map(|n| NodeSpec {
        unschedulable: true,
        ..n.clone()
    }));
    let mut s = scheduler(&cfg, &all, pods);
    let e = s.explain(p).unwrap();
    nodes
        .iter()
        .map(|n| e.nodes.iter().find(|x| x.node == n.name).unwrap().scores[0].normalized)
        .collect()
}

fn all_pods(spec: &[(&str, usize)]) -> Vec<PodSpec> {
    spec.iter().flat_map(|(n, c)| foo_pods(n, *c)).collect()
}

// scoring_test.go "one constraint on node, no existing pods".
#[test]
fn score_no_existing_pods() {
    let p = pod()
        .label("foo", "")
        .spread(1, HOST, ScheduleAnyway, foo())
        .obj();
    assert_eq!(
        pts_scores(&[host_node("node-a"), host_node("node-b")], &[], &[], &p),
        [100, 100]
    );
}

// scoring_test.go "one constraint on node, only one node is candidate".
#[test]
fn score_one_candidate() {
    let p = pod()
        .label("foo", "")
        .spread(1, HOST, ScheduleAnyway, foo())
        .obj();
    let pods = all_pods(&[("node-a", 2), ("node-b", 1)]);
    assert_eq!(
        pts_scores(&[host_node("node-a")], &[host_node("node-b")], &pods, &p),
        [100]
    );
}

// scoring_test.go "one constraint on node, all 4 nodes are candidates" (2/1/0/3).
#[test]
fn score_four_candidates() {
    let p = pod()
        .label("foo", "")
        .spread(1, HOST, ScheduleAnyway, foo())
        .obj();
    let nodes = ["node-a", "node-b", "node-c", "node-d"].map(host_node);
    let pods = all_pods(&[("node-a", 2), ("node-b", 1), ("node-d", 3)]);
    assert_eq!(pts_scores(&nodes, &[], &pods, &p), [20, 60, 100, 0]);
    // "one constraint on node, null selector"
    let p = pod()
        .label("foo", "")
        .spread(1, HOST, ScheduleAnyway, None)
        .obj();
    assert_eq!(pts_scores(&nodes, &[], &pods, &p), [100, 100, 100, 100]);
    // "one constraint on node, all 4 nodes are candidates, maxSkew=2"
    let p = pod()
        .label("foo", "")
        .spread(2, HOST, ScheduleAnyway, foo())
        .obj();
    assert_eq!(pts_scores(&nodes, &[], &pods, &p), [33, 66, 100, 16]);
}

// scoring_test.go "one constraint on node, all 4 nodes are candidates, maxSkew=3" (4/3/2/1) and
// "system defaulting, nodes don't have zone, pods match service".
#[test]
fn score_max_skew_three_and_system_defaults() {
    let nodes = ["node-a", "node-b", "node-c", "node-d"].map(host_node);
    let pods = all_pods(&[("node-a", 4), ("node-b", 3), ("node-c", 2), ("node-d", 1)]);
    let p = pod()
        .label("foo", "")
        .spread(3, HOST, ScheduleAnyway, foo())
        .obj();
    assert_eq!(pts_scores(&nodes, &[], &pods, &p), [44, 66, 77, 100]);
    let mut p = pod().label("foo", "").obj();
    p.default_spread_selector = Some(sel(&[("foo", "")]));
    assert_eq!(pts_scores(&nodes, &[], &pods, &p), [44, 66, 77, 100]);
}

// scoring_test.go "one constraint on node, 3 out of 4 nodes are candidates".
#[test]
fn score_three_of_four_candidates() {
    let p = pod()
        .label("foo", "")
        .spread(1, HOST, ScheduleAnyway, foo())
        .obj();
    let pods = all_pods(&[("node-a", 4), ("node-b", 2), ("node-x", 1), ("node-y", 3)]);
    let nodes = ["node-a", "node-b", "node-x"].map(host_node);
    assert_eq!(
        pts_scores(&nodes, &[host_node("node-y")], &pods, &p),
        [33, 83, 100]
    );
    // "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key"
    let nodes = [
        host_node("node-a"),
        node("node-b").label("n", "node-b").obj(),
        host_node("node-x"),
    ];
    assert_eq!(
        pts_scores(&nodes, &[host_node("node-y")], &pods, &p),
        [16, 0, 100]
    );
}

// scoring_test.go "one constraint on zone, 3 out of 4 nodes are candidates".
#[test]
fn score_zone_constraint() {
    let p = pod()
        .label("foo", "")
        .spread(1, "zone", ScheduleAnyway, foo())
        .obj();
    let pods = all_pods(&[("node-a", 4), ("node-b", 2), ("node-x", 1), ("node-y", 3)]);
    let nodes = [
        zone_node("node-a", "zone1"),
        zone_node("node-b", "zone1"),
        zone_node("node-x", "zone2"),
    ];
    assert_eq!(
        pts_scores(&nodes, &[zone_node("node-y", "zone2")], &pods, &p),
        [75, 75, 100]
    );
}

// scoring_test.go "two Constraints on zone and node, 2 out of 4 nodes are candidates".
#[test]
fn score_two_constraints_two_candidates() {
    let p = pod()
        .label("foo", "")
        .spread(1, "zone", ScheduleAnyway, foo())
        .spread(1, HOST, ScheduleAnyway, foo())
        .obj();
    let pods = all_pods(&[("node-a", 2), ("node-b", 1), ("node-x", 2), ("node-y", 4)]);
    let nodes = [zone_node("node-a", "zone1"), zone_node("node-x", "zone2")];
    let failed = [zone_node("node-b", "zone1"), zone_node("node-y", "zone2")];
    assert_eq!(pts_scores(&nodes, &failed, &pods, &p), [100, 63]);
}

// scoring_test.go "two Constraints on zone and node, with different labelSelectors" and
// "..., some nodes have 0 pods".
#[test]
fn score_two_constraints_different_selectors() {
    let p = pod()
        .label("foo", "")
        .label("bar", "")
        .spread(1, "zone", ScheduleAnyway, foo())
        .spread(1, HOST, ScheduleAnyway, bar())
        .obj();
    let nodes = [
        zone_node("node-a", "zone1"),
        zone_node("node-b", "zone1"),
        zone_node("node-x", "zone2"),
        zone_node("node-y", "zone2"),
    ];
    let pods = vec![
        pod().node("node-a").label("foo", "").obj(),
        pod().node("node-b").label("foo", "").label("bar", "").obj(),
        pod().node("node-y").label("foo", "").obj(),
        pod().node("node-y").label("bar", "").obj(),
    ];
    assert_eq!(pts_scores(&nodes, &[], &pods, &p), [60, 20, 100, 60]);
    let pods = vec![
        pod().node("node-b").label("bar", "").obj(),
        pod().node("node-x").label("foo", "").obj(),
        pod().node("node-y").label("foo", "").label("bar", "").obj(),
    ];
    let got = pts_scores(&nodes, &[], &pods, &p);
    assert_eq!(&got[..3], &[100, 60, 40]);
}

fn pts_filter(nodes: &[NodeSpec], pods: &[PodSpec], p: &PodSpec) -> Vec<Option<Vec<String>>> {
    filter_of("PodTopologySpread", nodes, pods, p)
}

const SKEW: &str = "node(s) didn't match pod topology spread constraints";
const MISSING: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";

fn r(s: &str) -> Option<Vec<String>> {
    Some(vec![s.to_string()])
}

fn four_zone_nodes() -> [NodeSpec; 4] {
    [
        zone_node("node-a", "zone1"),
        zone_node("node-b", "zone1"),
        zone_node("node-x", "zone2"),
        zone_node("node-y", "zone2"),
    ]
}

// filtering_test.go TestSingleConstraint.
#[test]
fn filter_single_constraint() {
    let p = pod()
        .label("foo", "")
        .spread(1, "zone", DoNotSchedule, foo())
        .obj();
    // "no existing pods"
    assert_eq!(
        pts_filter(&four_zone_nodes(), &[], &p),
        vec![None, None, None, None]
    );
    // "no existing pods, incoming pod doesn't match itself"
    let other = pod()
        .label("foo", "")
        .spread(1, "zone", DoNotSchedule, bar())
        .obj();
    assert_eq!(
        pts_filter(&four_zone_nodes(), &[], &other),
        vec![None, None, None, None]
    );
    // "existing pods in a different namespace do not count"
    let pods: Vec<PodSpec> = ["node-a", "node-b"]
        .iter()
        .map(|n| pod().namespace("ns1").node(n).label("foo", "").obj())
        .chain(all_pods(&[("node-x", 2)]))
        .collect();
    assert_eq!(
        pts_filter(&four_zone_nodes(), &pods, &p),
        vec![None, None, r(SKEW), r(SKEW)]
    );
    // "pods spread across zones as 3/3, all nodes fit"
    let pods = all_pods(&[("node-a", 1), ("node-b", 2), ("node-x", 2), ("node-y", 1)]);
    assert_eq!(
        pts_filter(&four_zone_nodes(), &pods, &p),
        vec![None, None, None, None]
    );
    // "pods spread across zones as 1/2 due to absence of label 'zone' on node-b"
    let nodes = [
        zone_node("node-a", "zone1"),
        node("node-b")
            .label("zon", "zone1")
            .label(HOST, "node-b")
            .obj(),
        zone_node("node-x", "zone2"),
        zone_node("node-y", "zone2"),
    ];
    let pods = all_pods(&[("node-a", 1), ("node-b", 1), ("node-x", 1), ("node-y", 1)]);
    assert_eq!(
        pts_filter(&nodes, &pods, &p),
        vec![None, r(MISSING), r(SKEW), r(SKEW)]
    );
    // "pod cannot be scheduled as all nodes don't have label 'rack'"
    let rack = pod()
        .label("foo", "")
        .spread(1, "rack", DoNotSchedule, foo())
        .obj();
    assert_eq!(
        pts_filter(
            &[zone_node("node-a", "zone1"), zone_node("node-x", "zone2")],
            &[],
            &rack
        ),
        vec![r(MISSING), r(MISSING)]
    );
    // "pods spread across nodes as 2/1/0/3, only node-x fits"
    let host = pod()
        .label("foo", "")
        .spread(1, HOST, DoNotSchedule, foo())
        .obj();
    let pods = all_pods(&[("node-a", 2), ("node-b", 1), ("node-y", 3)]);
    assert_eq!(
        pts_filter(&four_zone_nodes(), &pods, &host),
        vec![r(SKEW), r(SKEW), None, r(SKEW)]
    );
    // "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit"
    let host2 = pod()
        .label("foo", "")
        .spread(2, HOST, DoNotSchedule, foo())
        .obj();
    assert_eq!(
        pts_filter(&four_zone_nodes(), &pods, &host2),
        vec![r(SKEW), None, None, r(SKEW)]
    );
    // "pods spread across nodes as 2/1/0/3, but pod doesn't match itself"
    let host_bar = pod()
        .label("bar", "")
        .spread(1, HOST, DoNotSchedule, foo())
        .obj();
    assert_eq!(
        pts_filter(&four_zone_nodes(), &pods, &host_bar),
        vec![r(SKEW), None, None, r(SKEW)]
    );
    // Terminating pods do not count (countPodsMatchSelector bypasses them, #87621).
    let terminating = vec![pod().node("node-a").label("foo", "").terminating().obj()];
    assert_eq!(
        pts_filter(&four_zone_nodes(), &terminating, &host),
        vec![None, None, None, None]
    );
}

// filtering_test.go "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits"
// (nodeAffinityPolicy Honor by default: nodes outside the pod's node affinity are not domains).
#[test]
fn filter_node_affinity_policy() {
    let p = pod()
        .label("foo", "")
        .spread(1, HOST, DoNotSchedule, foo())
        .node_affinity_in("node", &["node-a", "node-y"])
        .obj();
    let nodes = [
        node("node-a")
            .label("node", "node-a")
            .label(HOST, "node-a")
            .obj(),
        node("node-b")
            .label("node", "node-b")
            .label(HOST, "node-b")
            .obj(),
        node("node-x")
            .label("node", "node-x")
            .label(HOST, "node-x")
            .obj(),
        node("node-y")
            .label("node", "node-y")
            .label(HOST, "node-y")
            .obj(),
    ];
    let pods = all_pods(&[("node-a", 2), ("node-b", 1), ("node-y", 3)]);
    // Domains are node-a (2) and node-y (3): min 2. node-b and node-x are left to NodeAffinity.
    assert_eq!(
        pts_filter(&nodes, &pods, &p),
        vec![None, None, None, r(SKEW)]
    );
    // With nodeAffinityPolicy Ignore every node is a domain; min becomes 0 (node-x).
    let mut ignore = p.clone();
    ignore.topology_spread_constraints[0].node_affinity_policy = Some(NodeInclusionPolicy::Ignore);
    assert_eq!(
        pts_filter(&nodes, &pods, &ignore),
        vec![r(SKEW), r(SKEW), None, r(SKEW)]
    );
}

// filtering_test.go "minDomains": with fewer domains than minDomains the global minimum is 0.
#[test]
fn filter_min_domains() {
    let nodes = [
        zone_node("node-a", "zone1"),
        zone_node("node-b", "zone1"),
        zone_node("node-x", "zone2"),
        zone_node("node-y", "zone2"),
    ];
    let pods = all_pods(&[("node-a", 1), ("node-b", 1), ("node-x", 1), ("node-y", 1)]);
    let mut c = TopologySpreadConstraint {
        max_skew: 2,
        topology_key: "zone".into(),
        when_unsatisfiable: DoNotSchedule,
        label_selector: foo(),
        ..TopologySpreadConstraint::default()
    };
    let p = pod().label("foo", "").spread_full(c.clone()).obj();
    assert_eq!(pts_filter(&nodes, &pods, &p), vec![None, None, None, None]);
    c.min_domains = Some(3);
    let p = pod().label("foo", "").spread_full(c).obj();
    // 2 + 1 - 0 > 2 everywhere.
    assert_eq!(
        pts_filter(&nodes, &pods, &p),
        vec![r(SKEW), r(SKEW), r(SKEW), r(SKEW)]
    );
}

// filtering_test.go "nodeTaintsPolicy Honor": tainted nodes the pod does not tolerate are no
// domain, so their pods do not raise... and do not lower the minimum.
#[test]
fn filter_node_taints_policy() {
    let nodes = [
        host_node("node-a"),
        host_node("node-b"),
        node("node-c")
            .label(HOST, "node-c")
            .taint("foo", "", TaintEffect::NoSchedule)
            .obj(),
    ];
    let pods = all_pods(&[("node-a", 1), ("node-b", 1)]);
    let mut c = TopologySpreadConstraint {
        max_skew: 1,
        topology_key: HOST.into(),
        when_unsatisfiable: DoNotSchedule,
        label_selector: foo(),
        ..TopologySpreadConstraint::default()
    };
    // Ignore (default): node-c (0 pods) is the minimum; a and b have skew 2.
    let p = pod().label("foo", "").spread_full(c.clone()).obj();
    assert_eq!(pts_filter(&nodes, &pods, &p), vec![r(SKEW), r(SKEW), None]);
    c.node_taints_policy = Some(NodeInclusionPolicy::Honor);
    let p = pod().label("foo", "").spread_full(c).obj();
    assert_eq!(pts_filter(&nodes, &pods, &p), vec![None, None, None]);
}

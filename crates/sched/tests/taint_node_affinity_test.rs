//! Ported from taint_toleration_test.go, node_affinity_test.go, node_unschedulable_test.go,
//! node_name_test.go and node_ports_test.go.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::plugins::node_affinity::NodeAffinityArgs;
use kubewasm_sched::*;
use NodeSelectorOperator as Op;
use TaintEffect::*;
use TolerationOperator::*;

// taint_toleration_test.go TestTaintTolerationScore "node with taints tolerated by the pod, gets
// a higher score than those node with intolerable taints".
#[test]
fn taint_score_tolerated_beats_intolerable() {
    let p = pod()
        .toleration("foo", Equal, "bar", Some(PreferNoSchedule))
        .obj();
    let nodes = [
        node("nodeA").taint("foo", "bar", PreferNoSchedule).obj(),
        node("nodeB").taint("foo", "blah", PreferNoSchedule).obj(),
    ];
    assert_eq!(scores_of("TaintToleration", &nodes, &[], &p), [100, 0]);
}

// taint_toleration_test.go "the nodes that all of their taints are tolerated by the pod, get the
// same score, no matter how many tolerable taints a node has".
#[test]
fn taint_score_count_of_tolerated_taints_does_not_matter() {
    let p = pod()
        .toleration("cpu-type", Equal, "arm64", Some(PreferNoSchedule))
        .toleration("disk-type", Equal, "ssd", Some(PreferNoSchedule))
        .obj();
    let nodes = [
        node("nodeA").obj(),
        node("nodeB")
            .taint("cpu-type", "arm64", PreferNoSchedule)
            .obj(),
        node("nodeC")
            .taint("cpu-type", "arm64", PreferNoSchedule)
            .taint("disk-type", "ssd", PreferNoSchedule)
            .obj(),
    ];
    assert_eq!(
        scores_of("TaintToleration", &nodes, &[], &p),
        [100, 100, 100]
    );
}

// taint_toleration_test.go "the more intolerable taints a node has, the lower score it gets."
#[test]
fn taint_score_more_intolerable_lower() {
    let p = pod()
        .toleration("foo", Equal, "bar", Some(PreferNoSchedule))
        .obj();
    let nodes = [
        node("nodeA").obj(),
        node("nodeB")
            .taint("cpu-type", "arm64", PreferNoSchedule)
            .obj(),
        node("nodeC")
            .taint("cpu-type", "arm64", PreferNoSchedule)
            .taint("disk-type", "ssd", PreferNoSchedule)
            .obj(),
    ];
    assert_eq!(scores_of("TaintToleration", &nodes, &[], &p), [100, 50, 0]);
}

// taint_toleration_test.go "only taints and tolerations that have effect PreferNoSchedule are
// checked by taints-tolerations priority function".
#[test]
fn taint_score_only_prefer_no_schedule() {
    let p = pod()
        .toleration("cpu-type", Equal, "arm64", Some(NoSchedule))
        .toleration("disk-type", Equal, "ssd", Some(NoSchedule))
        .obj();
    let nodes = [
        node("nodeA").obj(),
        node("nodeB").taint("cpu-type", "arm64", NoSchedule).obj(),
        node("nodeC")
            .taint("cpu-type", "arm64", PreferNoSchedule)
            .taint("disk-type", "ssd", PreferNoSchedule)
            .obj(),
    ];
    assert_eq!(scores_of("TaintToleration", &nodes, &[], &p), [100, 100, 0]);
}

// taint_toleration_test.go "Default behaviour No taints and tolerations, lands on node with no taints".
#[test]
fn taint_score_default_behaviour() {
    let nodes = [
        node("nodeA").obj(),
        node("nodeB")
            .taint("cpu-type", "arm64", PreferNoSchedule)
            .obj(),
    ];
    assert_eq!(
        scores_of("TaintToleration", &nodes, &[], &pod().obj()),
        [100, 0]
    );
}

fn taint_filter(p: PodSpec, n: NodeSpec) -> Option<Vec<String>> {
    filter_of("TaintToleration", &[n], &[], &p).remove(0)
}

// taint_toleration_test.go TestTaintTolerationFilter (reason in the `{key: value}` form).
#[test]
fn taint_filter_table() {
    let dedicated = || node("nodeA").taint("dedicated", "user1", NoSchedule).obj();
    let untolerated = Some(vec![
        "node(s) had untolerated taint {dedicated: user1}".to_string()
    ]);
    // "A pod having no tolerations can't be scheduled onto a node with nonempty taints"
    assert_eq!(taint_filter(pod().obj(), dedicated()), untolerated);
    // "A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule"
    assert_eq!(
        taint_filter(
            pod()
                .toleration("dedicated", Equal, "user1", Some(NoSchedule))
                .obj(),
            dedicated()
        ),
        None
    );
    // "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule"
    assert_eq!(
        taint_filter(
            pod()
                .toleration("dedicated", Equal, "user2", Some(NoSchedule))
                .obj(),
            dedicated()
        ),
        untolerated
    );
    // "A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node"
    let foo = || node("nodeA").taint("foo", "bar", NoSchedule).obj();
    assert_eq!(
        taint_filter(
            pod().toleration("foo", Exists, "", Some(NoSchedule)).obj(),
            foo()
        ),
        None
    );
    // "A pod has multiple tolerations, node has multiple taints, all the taints are tolerated"
    let both = node("nodeA")
        .taint("dedicated", "user2", NoSchedule)
        .taint("foo", "bar", NoSchedule)
        .obj();
    let p = pod()
        .toleration("dedicated", Equal, "user2", Some(NoSchedule))
        .toleration("foo", Exists, "", Some(NoSchedule))
        .obj();
    assert_eq!(taint_filter(p, both), None);
    // "... but (non-empty) effect doesn't match, can't be scheduled onto the node"
    assert_eq!(
        taint_filter(
            pod()
                .toleration("foo", Equal, "bar", Some(PreferNoSchedule))
                .obj(),
            foo()
        ),
        Some(vec!["node(s) had untolerated taint {foo: bar}".to_string()])
    );
    // "... the effect of toleration is empty, and the effect of taint is NoSchedule"
    assert_eq!(
        taint_filter(pod().toleration("foo", Equal, "bar", None).obj(), foo()),
        None
    );
    // "... but the effect of taint on node is PreferNoSchedule"
    let prefer = || {
        node("nodeA")
            .taint("dedicated", "user1", PreferNoSchedule)
            .obj()
    };
    assert_eq!(
        taint_filter(
            pod()
                .toleration("dedicated", Equal, "user2", Some(NoSchedule))
                .obj(),
            prefer()
        ),
        None
    );
    // "The pod has no toleration, but the effect of taint on node is PreferNoSchedule"
    assert_eq!(taint_filter(pod().obj(), prefer()), None);
}

fn na_filter(p: PodSpec, labels_: &[(&str, &str)]) -> bool {
    let mut n = node("node1");
    for (k, v) in labels_ {
        n = n.label(k, v);
    }
    filter_of("NodeAffinity", &[n.obj()], &[], &p)
        .remove(0)
        .is_none()
}

// node_affinity_test.go TestNodeAffinity.
#[test]
fn node_affinity_filter_table() {
    // "no selector"
    assert!(na_filter(pod().obj(), &[]));
    // "missing labels"
    assert!(!na_filter(pod().node_selector("foo", "bar").obj(), &[]));
    // "same labels"
    assert!(na_filter(
        pod().node_selector("foo", "bar").obj(),
        &[("foo", "bar")]
    ));
    // "node labels are superset"
    assert!(na_filter(
        pod().node_selector("foo", "bar").obj(),
        &[("foo", "bar"), ("baz", "blah")]
    ));
    // "node labels are subset"
    assert!(!na_filter(
        pod()
            .node_selector("foo", "bar")
            .node_selector("baz", "blah")
            .obj(),
        &[("foo", "bar")]
    ));
    // "Pod with matchExpressions using In operator that matches the existing node"
    let p = pod()
        .required_node_terms(vec![nterm(vec![nreq("foo", Op::In, &["bar", "value2"])])])
        .obj();
    assert!(na_filter(p, &[("foo", "bar")]));
    // "Pod with matchExpressions using Gt operator that matches the existing node"
    let p = pod()
        .required_node_terms(vec![nterm(vec![nreq("kernel-version", Op::Gt, &["0204"])])])
        .obj();
    assert!(na_filter(p, &[("kernel-version", "0206")]));
    // "Pod with matchExpressions using NotIn operator that matches the existing node"
    let p = pod()
        .required_node_terms(vec![nterm(vec![nreq(
            "mem-type",
            Op::NotIn,
            &["DDR", "DDR2"],
        )])])
        .obj();
    assert!(na_filter(p, &[("mem-type", "DDR3")]));
    // "Pod with matchExpressions using Exists operator that matches the existing node"
    let p = pod()
        .required_node_terms(vec![nterm(vec![nreq("GPU", Op::Exists, &[])])])
        .obj();
    assert!(na_filter(p, &[("GPU", "NVIDIA-GRID-K1")]));
    // "Pod with affinity that don't match node's labels won't schedule onto the node"
    let p = pod()
        .required_node_terms(vec![nterm(vec![nreq(
            "foo",
            Op::In,
            &["value1", "value2"],
        )])])
        .obj();
    assert!(!na_filter(p, &[("foo", "bar")]));
    // "Pod with a nil []NodeSelectorTerm in affinity, can't match the node's labels"
    assert!(!na_filter(
        pod().required_node_terms(vec![]).obj(),
        &[("foo", "bar")]
    ));
    // "Pod with empty MatchExpressions is not a valid value will match no objects"
    assert!(!na_filter(
        pod().required_node_terms(vec![nterm(vec![])]).obj(),
        &[("foo", "bar")]
    ));
    // "Pod with multiple matchExpressions ANDed that doesn't match the existing node"
    let p = pod()
        .required_node_terms(vec![nterm(vec![
            nreq("GPU", Op::Exists, &[]),
            nreq("GPU", Op::NotIn, &["AMD", "INTER"]),
        ])])
        .obj();
    assert!(na_filter(p.clone(), &[("GPU", "NVIDIA-GRID-K1")]));
    assert!(!na_filter(p, &[("GPU", "AMD")]));
    // "Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels"
    let p = pod()
        .required_node_terms(vec![
            nterm(vec![nreq("foo", Op::In, &["bar", "value2"])]),
            nterm(vec![nreq("diffkey", Op::In, &["wrong", "value2"])]),
        ])
        .obj();
    assert!(na_filter(p, &[("foo", "bar")]));
    // "Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied"
    let p = pod()
        .node_selector("foo", "bar")
        .required_node_terms(vec![nterm(vec![nreq("foo", Op::Exists, &[])])])
        .obj();
    assert!(na_filter(p, &[("foo", "bar")]));
    // "Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied"
    let p = pod()
        .node_selector("foo", "bar")
        .required_node_terms(vec![nterm(vec![nreq("foo", Op::Exists, &[])])])
        .obj();
    assert!(!na_filter(p, &[("foo", "barrrrrr")]));
}

// node_affinity_test.go "Pod with matchFields using In operator that matches the existing node"
// and "... that does not match the existing node": PreFilter narrows candidates by name.
#[test]
fn node_affinity_match_fields_narrow_candidates() {
    let term = NodeSelectorTerm {
        match_expressions: vec![],
        match_fields: vec![nreq("metadata.name", Op::In, &["node1"])],
    };
    let p = pod().required_node_terms(vec![term]).obj();
    let nodes = [
        node("node1").capacity(1000, 1000).obj(),
        node("node2").capacity(1000, 1000).obj(),
    ];
    let mut s = scheduler(&ProfileConfig::default(), &nodes, &[]);
    let e = s.explain(&p).unwrap();
    assert_eq!(e.chosen.as_deref(), Some("node1"));
    let n2 = e.nodes.iter().find(|n| n.node == "node2").unwrap();
    assert!(!n2.examined);
    // Conflicting terms: "pod affinity terms conflict" at PreFilter.
    let a = NodeSelectorTerm {
        match_expressions: vec![],
        match_fields: vec![
            nreq("metadata.name", Op::In, &["node1"]),
            nreq("metadata.name", Op::In, &["node2"]),
        ],
    };
    let p = pod().required_node_terms(vec![a]).obj();
    let placed = s.schedule_one(&p).unwrap();
    assert!(placed
        .message
        .unwrap()
        .starts_with("0/2 nodes are available: pod affinity terms conflict."));
}

// node_affinity_test.go "Pod with node affinity, but the node doesn't match the scheduler-enforced
// node affinity" (addedAffinity).
#[test]
fn node_affinity_added_affinity_is_enforced() {
    let mut cfg = only_filter("NodeAffinity");
    cfg.plugin_config
        .push(PluginArgs::NodeAffinity(NodeAffinityArgs {
            added_required: Some(vec![nterm(vec![nreq("zone", Op::In, &["foo"])])]),
            added_preferred: vec![],
        }));
    let nodes = [node("node1").label("zone", "bar").obj()];
    let mut s = scheduler(&cfg, &nodes, &[]);
    let e = s.explain(&pod().obj()).unwrap();
    assert_eq!(
        e.nodes[0].filters[0].reasons,
        ["node(s) didn't match scheduler-enforced node affinity"]
    );
}

fn affinity2(p: PodB) -> PodB {
    p.preferred_node(2, nterm(vec![nreq("foo", Op::In, &["bar"])]))
        .preferred_node(4, nterm(vec![nreq("key", Op::In, &["value"])]))
        .preferred_node(
            5,
            nterm(vec![
                nreq("foo", Op::In, &["bar"]),
                nreq("key", Op::In, &["value"]),
                nreq("az", Op::In, &["az1"]),
            ]),
        )
}

fn na_node(name: &str, l: &[(&str, &str)]) -> NodeSpec {
    let mut n = node(name);
    for (k, v) in l {
        n = n.label(k, v);
    }
    n.obj()
}

const LABEL1: &[(&str, &str)] = &[("foo", "bar")];
const LABEL2: &[(&str, &str)] = &[("key", "value")];
const LABEL3: &[(&str, &str)] = &[("az", "az1")];
const LABEL4: &[(&str, &str)] = &[("abc", "az11"), ("def", "az22")];
const LABEL5: &[(&str, &str)] = &[("foo", "bar"), ("key", "value"), ("az", "az1")];

// node_affinity_test.go TestNodeAffinityPriority.
#[test]
fn node_affinity_priority_table() {
    let affinity1 = || pod().preferred_node(2, nterm(vec![nreq("foo", Op::In, &["bar"])]));
    // "all nodes are same priority as NodeAffinity is nil"
    let nodes = [
        na_node("node1", LABEL1),
        na_node("node2", LABEL2),
        na_node("node3", LABEL3),
    ];
    assert_eq!(
        scores_of("NodeAffinity", &nodes, &[], &pod().obj()),
        [0, 0, 0]
    );
    // "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero"
    let nodes4 = [
        na_node("node1", LABEL4),
        na_node("node2", LABEL2),
        na_node("node3", LABEL3),
    ];
    assert_eq!(
        scores_of("NodeAffinity", &nodes4, &[], &affinity1().obj()),
        [0, 0, 0]
    );
    // "only node1 matches the preferred scheduling requirements of pod"
    assert_eq!(
        scores_of("NodeAffinity", &nodes, &[], &affinity1().obj()),
        [100, 0, 0]
    );
    // "all nodes matches the preferred scheduling requirements of pod but with different priorities"
    let nodes = [
        na_node("node1", LABEL1),
        na_node("node5", LABEL5),
        na_node("node2", LABEL2),
    ];
    assert_eq!(
        scores_of("NodeAffinity", &nodes, &[], &affinity2(pod()).obj()),
        [18, 100, 36]
    );
}

// node_affinity_test.go "added affinity" and "added affinity and pod has default affinity".
#[test]
fn node_affinity_priority_added_affinity() {
    let mut cfg = only_score("NodeAffinity");
    cfg.plugin_config
        .push(PluginArgs::NodeAffinity(NodeAffinityArgs {
            added_required: None,
            added_preferred: vec![PreferredSchedulingTerm {
                weight: 2,
                preference: nterm(vec![nreq("foo", Op::In, &["bar"])]),
            }],
        }));
    let nodes = [na_node("node1", LABEL1), na_node("node2", LABEL2)];
    let got: Vec<i64> = plugin_scores(&cfg, &nodes, &[], &pod().obj())
        .into_iter()
        .map(|x| x.1)
        .collect();
    assert_eq!(got, [100, 0]);
    let mut cfg = only_score("NodeAffinity");
    cfg.plugin_config
        .push(PluginArgs::NodeAffinity(NodeAffinityArgs {
            added_required: None,
            added_preferred: vec![PreferredSchedulingTerm {
                weight: 3,
                preference: nterm(vec![nreq("key", Op::In, &["value"])]),
            }],
        }));
    let nodes = [
        na_node("node1", LABEL1),
        na_node("node2", LABEL2),
        na_node("node3", LABEL5),
    ];
    let p = pod()
        .preferred_node(2, nterm(vec![nreq("foo", Op::In, &["bar"])]))
        .obj();
    let got: Vec<i64> = plugin_scores(&cfg, &nodes, &[], &p)
        .into_iter()
        .map(|x| x.1)
        .collect();
    assert_eq!(got, [40, 60, 100]);
}

// node_unschedulable_test.go TestNodeUnschedulable.
#[test]
fn node_unschedulable_table() {
    let cordoned = || node("node1").unschedulable().obj();
    assert_eq!(
        filter_of("NodeUnschedulable", &[cordoned()], &[], &pod().obj()),
        vec![Some(vec!["node(s) were unschedulable".to_string()])]
    );
    assert_eq!(
        filter_of(
            "NodeUnschedulable",
            &[node("node1").obj()],
            &[],
            &pod().obj()
        ),
        vec![None]
    );
    let tolerant = pod()
        .toleration(
            "node.kubernetes.io/unschedulable",
            Exists,
            "",
            Some(NoSchedule),
        )
        .obj();
    assert_eq!(
        filter_of("NodeUnschedulable", &[cordoned()], &[], &tolerant),
        vec![None]
    );
}

// node_name_test.go TestNodeName.
#[test]
fn node_name_table() {
    let nodes = [node("foo").obj()];
    assert_eq!(filter_of("NodeName", &nodes, &[], &pod().obj()), vec![None]);
    let mut p = pod().obj();
    p.node_name = Some("foo".into());
    assert_eq!(filter_of("NodeName", &nodes, &[], &p), vec![None]);
    p.node_name = Some("bar".into());
    assert_eq!(
        filter_of("NodeName", &nodes, &[], &p),
        vec![Some(vec![
            "node(s) didn't match the requested node name".to_string()
        ])]
    );
}

// node_ports_test.go TestNodePorts.
#[test]
fn node_ports_table() {
    let conflict = Some(vec![
        "node(s) didn't have free ports for the requested pod ports".to_string(),
    ]);
    let n = || node("m1").capacity(1000, 1000).obj();
    let used = |port, proto, ip: &str| pod().node("m1").host_port(port, proto, ip).obj();
    let want = |port, proto, ip: &str| pod().host_port(port, proto, ip).obj();
    use Protocol::*;
    // "nothing running"
    assert_eq!(
        filter_of("NodePorts", &[n()], &[], &want(8080, Udp, "127.0.0.1")),
        vec![None]
    );
    // "other port"
    assert_eq!(
        filter_of(
            "NodePorts",
            &[n()],
            &[used(9090, Udp, "127.0.0.1")],
            &want(8080, Udp, "127.0.0.1")
        ),
        vec![None]
    );
    // "same udp port"
    assert_eq!(
        filter_of(
            "NodePorts",
            &[n()],
            &[used(8080, Udp, "127.0.0.1")],
            &want(8080, Udp, "127.0.0.1")
        ),
        vec![conflict.clone()]
    );
    // "same tcp port"
    assert_eq!(
        filter_of(
            "NodePorts",
            &[n()],
            &[used(8080, Tcp, "127.0.0.1")],
            &want(8080, Tcp, "127.0.0.1")
        ),
        vec![conflict.clone()]
    );
    // "different host ip"
    assert_eq!(
        filter_of(
            "NodePorts",
            &[n()],
            &[used(8080, Tcp, "127.0.0.2")],
            &want(8080, Tcp, "127.0.0.1")
        ),
        vec![None]
    );
    // "different protocol"
    assert_eq!(
        filter_of(
            "NodePorts",
            &[n()],
            &[used(8080, Tcp, "127.0.0.1")],
            &want(8080, Udp, "127.0.0.1")
        ),
        vec![None]
    );
    // "first tcp port conflict due to 0.0.0.0 hostIP"
    assert_eq!(
        filter_of(
            "NodePorts",
            &[n()],
            &[used(8001, Tcp, "127.0.0.1")],
            &want(8001, Tcp, "0.0.0.0")
        ),
        vec![conflict.clone()]
    );
    // "TCP hostPort conflict due to 127.0.0.1 hostIP"
    assert_eq!(
        filter_of(
            "NodePorts",
            &[n()],
            &[used(8001, Tcp, "0.0.0.0")],
            &want(8001, Tcp, "127.0.0.1")
        ),
        vec![conflict]
    );
}

//! Ported from interpodaffinity/scoring_test.go (TestPreferredAffinity) and filtering_test.go.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test crate: a failed unwrap is a failed test

mod common;

use common::*;
use kubewasm_sched::*;
use SelectorOperator::*;

const RG_CHINA: &[(&str, &str)] = &[("region", "China")];
const RG_INDIA: &[(&str, &str)] = &[("region", "India")];
const AZ1: &[(&str, &str)] = &[("az", "az1")];
const AZ2: &[(&str, &str)] = &[("az", "az2")];
const RG_CHINA_AZ1: &[(&str, &str)] = &[("region", "China"), ("az", "az1")];

fn n(name: &str, l: &[(&str, &str)]) -> NodeSpec {
    let mut b = node(name);
    for (k, v) in l {
        b = b.label(k, v);
    }
    b.obj()
}

fn s(v: &str) -> LabelSelector {
    sel_expr("security", In, &[v])
}

fn stay_with_s1_in_region(p: PodB) -> PodB {
    p.preferred_pod_affinity(5, "region", s("S1"))
}
fn stay_with_s2_in_region(p: PodB) -> PodB {
    p.preferred_pod_affinity(6, "region", s("S2"))
}
fn away_from_s1_in_az(p: PodB) -> PodB {
    p.preferred_pod_anti_affinity(5, "az", s("S1"))
}
fn away_from_s2_in_az(p: PodB) -> PodB {
    p.preferred_pod_anti_affinity(5, "az", s("S2"))
}
fn stay_with_s1_in_region_away_from_s2_in_az(p: PodB) -> PodB {
    p.preferred_pod_affinity(8, "region", s("S1"))
        .preferred_pod_anti_affinity(5, "az", s("S2"))
}
fn affinity3(p: PodB) -> PodB {
    let a = LabelSelector {
        match_labels: vec![],
        match_expressions: vec![
            LabelSelectorRequirement {
                key: "security".into(),
                operator: NotIn,
                values: vec!["S1".into()],
            },
            LabelSelectorRequirement {
                key: "security".into(),
                operator: In,
                values: vec!["S2".into()],
            },
        ],
    };
    let b = LabelSelector {
        match_labels: vec![],
        match_expressions: vec![
            LabelSelectorRequirement {
                key: "security".into(),
                operator: Exists,
                values: vec![],
            },
            LabelSelectorRequirement {
                key: "wrongkey".into(),
                operator: DoesNotExist,
                values: vec![],
            },
        ],
    };
    p.preferred_pod_affinity(8, "region", a)
        .preferred_pod_affinity(2, "region", b)
}
fn hard_affinity(p: PodB) -> PodB {
    let b = LabelSelector {
        match_labels: vec![],
        match_expressions: vec![
            LabelSelectorRequirement {
                key: "security".into(),
                operator: Exists,
                values: vec![],
            },
            LabelSelectorRequirement {
                key: "wrongkey".into(),
                operator: DoesNotExist,
                values: vec![],
            },
        ],
    };
    p.pod_affinity("region", sel_expr("security", In, &["S1", "value2"]))
        .pod_affinity("region", b)
}
fn ns_selector_term(anti: bool, p: PodB) -> PodB {
    let mut p = p;
    let t = PodAffinityTerm {
        label_selector: Some(s("S1")),
        namespaces: vec!["subteam2.team2".into()],
        namespace_selector: Some(sel_expr("team", In, &["team1"])),
        topology_key: "region".into(),
        ..PodAffinityTerm::default()
    };
    let w = WeightedPodAffinityTerm { weight: 5, term: t };
    if anti {
        p.0.affinity.pod_anti_affinity_preferred.push(w);
    } else {
        p.0.affinity.pod_affinity_preferred.push(w);
    }
    p
}

fn on(node_name: &str, label: &str) -> PodB {
    pod().node(node_name).label("security", label)
}

fn ipa_scores(nodes: &[NodeSpec], pods: &[PodSpec], p: &PodSpec) -> Vec<i64> {
    let mut s = scheduler(&only_score("InterPodAffinity"), nodes, pods);
    for (ns, team) in [
        ("subteam1.team1", "team1"),
        ("subteam2.team1", "team1"),
        ("subteam1.team2", "team2"),
        ("subteam2.team2", "team2"),
    ] {
        s.set_namespace_labels(ns, &labels(&[("team", team)]));
    }
    let e = s.explain(p).unwrap();
    let order: Vec<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
    let mut v: Vec<(usize, i64)> = e
        .nodes
        .iter()
        .map(|x| {
            (
                order.iter().position(|o| *o == x.node).unwrap(),
                x.scores[0].normalized,
            )
        })
        .collect();
    v.sort();
    v.into_iter().map(|x| x.1).collect()
}

// scoring_test.go "all nodes are same priority as Affinity is nil": PreScore Skip.
#[test]
fn preferred_nil_affinity_skips() {
    let nodes = [n("node1", RG_CHINA), n("node2", RG_INDIA), n("node3", AZ1)];
    let mut sch = scheduler(&only_score("InterPodAffinity"), &nodes, &[]);
    let e = sch.explain(&pod().label("security", "S1").obj()).unwrap();
    assert!(e.nodes.iter().all(|x| x.scores[0].skipped));
}

// scoring_test.go "Affinity: pod that matches topology key & pods in nodes will get high score
// comparing to otherswhich doesn't match either pods in nodes or in topology key".
#[test]
fn preferred_affinity_matches_topology_and_pods() {
    let nodes = [n("node1", RG_CHINA), n("node2", RG_INDIA), n("node3", AZ1)];
    let pods = [
        on("node1", "S1").obj(),
        on("node2", "S2").obj(),
        on("node3", "S1").obj(),
    ];
    let p = stay_with_s1_in_region(pod().label("security", "S1")).obj();
    assert_eq!(ipa_scores(&nodes, &pods, &p), [100, 0, 0]);
}

// scoring_test.go "All the nodes that have the same topology key & label value with one of them
// has an existing pod that match the affinity rules, have the same score".
#[test]
fn preferred_affinity_same_topology_value_same_score() {
    let nodes = [
        n("node1", RG_CHINA),
        n("node2", RG_CHINA_AZ1),
        n("node3", RG_INDIA),
    ];
    let pods = [on("node1", "S1").obj()];
    assert_eq!(
        ipa_scores(&nodes, &pods, &stay_with_s1_in_region(pod()).obj()),
        [100, 100, 0]
    );
}

// scoring_test.go "Affinity: nodes in one region has more matching pods comparing to other
// region, so the region which has more matches will get high score".
#[test]
fn preferred_affinity_region_with_more_matches_wins() {
    let nodes = [
        n("node1", RG_CHINA),
        n("node2", RG_INDIA),
        n("node3", RG_CHINA),
        n("node4", RG_CHINA),
        n("node5", RG_INDIA),
    ];
    let pods: Vec<PodSpec> = ["node1", "node1", "node2", "node3", "node4", "node5"]
        .iter()
        .map(|x| on(x, "S2").obj())
        .collect();
    let p = stay_with_s2_in_region(pod().label("security", "S1")).obj();
    assert_eq!(ipa_scores(&nodes, &pods, &p), [100, 0, 100, 100, 0]);
}

// scoring_test.go "Affinity: different Label operators and values for pod affinity scheduling
// preference, including some match failures ".
#[test]
fn preferred_affinity_operators() {
    let nodes = [n("node1", RG_CHINA), n("node2", RG_INDIA), n("node3", AZ1)];
    let pods = [
        on("node1", "S1").obj(),
        on("node2", "S2").obj(),
        on("node3", "S1").obj(),
    ];
    assert_eq!(
        ipa_scores(
            &nodes,
            &pods,
            &affinity3(pod().label("security", "S1")).obj()
        ),
        [20, 100, 0]
    );
}

// scoring_test.go "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution
// in pod affinity symmetry".
#[test]
fn preferred_affinity_symmetry() {
    let nodes = [n("node1", RG_CHINA), n("node2", RG_INDIA), n("node3", AZ1)];
    let pods = [
        stay_with_s1_in_region(on("node1", "S1")).obj(),
        stay_with_s2_in_region(on("node2", "S2")).obj(),
    ];
    assert_eq!(
        ipa_scores(&nodes, &pods, &pod().label("security", "S2").obj()),
        [0, 100, 0]
    );
}

// scoring_test.go "Affinity symmetry with namespace selector" / "AntiAffinity symmetry with
// namespace selector".
#[test]
fn preferred_symmetry_with_namespace_selector() {
    let nodes = [n("node1", RG_CHINA), n("node2", RG_INDIA), n("node3", AZ1)];
    let incoming = pod()
        .namespace("subteam1.team1")
        .label("security", "S1")
        .obj();
    let pods = [
        ns_selector_term(false, on("node1", "S1").namespace("")).obj(),
        stay_with_s2_in_region(on("node2", "S2").namespace("")).obj(),
    ];
    assert_eq!(ipa_scores(&nodes, &pods, &incoming), [100, 0, 0]);
    let pods = [
        ns_selector_term(true, on("node1", "S1").namespace("")).obj(),
        stay_with_s2_in_region(on("node2", "S2").namespace("")).obj(),
    ];
    assert_eq!(ipa_scores(&nodes, &pods, &incoming), [0, 100, 100]);
}

// scoring_test.go "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution
// in pod affinity symmetry" (hardPodAffinityWeight 1).
#[test]
fn preferred_hard_affinity_symmetry() {
    let nodes = [n("node1", RG_CHINA), n("node2", RG_INDIA), n("node3", AZ1)];
    let pods = [
        hard_affinity(on("node1", "S1")).obj(),
        hard_affinity(on("node2", "S2")).obj(),
    ];
    assert_eq!(
        ipa_scores(&nodes, &pods, &pod().label("security", "S1").obj()),
        [100, 100, 0]
    );
}

// scoring_test.go "Anti Affinity: pod that does not match existing pods in node will get high score ".
#[test]
fn preferred_anti_affinity_cases() {
    let p = away_from_s1_in_az(pod().label("security", "S1")).obj();
    let nodes = [n("node1", AZ1), n("node2", RG_CHINA)];
    assert_eq!(
        ipa_scores(
            &nodes,
            &[on("node1", "S1").obj(), on("node2", "S2").obj()],
            &p
        ),
        [0, 100]
    );
    // "Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others "
    assert_eq!(
        ipa_scores(
            &nodes,
            &[on("node1", "S1").obj(), on("node2", "S1").obj()],
            &p
        ),
        [0, 100]
    );
    // "Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score"
    let nodes = [n("node1", AZ1), n("node2", RG_INDIA)];
    let pods = [
        on("node1", "S1").obj(),
        on("node1", "S1").obj(),
        on("node2", "S2").obj(),
    ];
    assert_eq!(ipa_scores(&nodes, &pods, &p), [0, 100]);
}

// scoring_test.go "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score".
#[test]
fn preferred_anti_affinity_symmetry() {
    let nodes = [n("node1", AZ1), n("node2", AZ2)];
    let pods = [
        away_from_s2_in_az(on("node1", "S1")).obj(),
        away_from_s1_in_az(on("node2", "S2")).obj(),
    ];
    assert_eq!(
        ipa_scores(&nodes, &pods, &pod().label("security", "S2").obj()),
        [0, 100]
    );
}

// scoring_test.go "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution
// in both pod affinity & anti affinity" and "... the pod to schedule and existing pods have the same labels".
#[test]
fn preferred_affinity_and_anti_affinity() {
    let p = stay_with_s1_in_region_away_from_s2_in_az(pod().label("security", "S1")).obj();
    let nodes = [n("node1", RG_CHINA), n("node2", AZ1)];
    assert_eq!(
        ipa_scores(
            &nodes,
            &[on("node1", "S1").obj(), on("node2", "S1").obj()],
            &p
        ),
        [100, 0]
    );
    let nodes = [
        n("node1", RG_CHINA_AZ1),
        n("node2", RG_INDIA),
        n("node3", RG_CHINA),
        n("node4", RG_CHINA),
        n("node5", RG_INDIA),
    ];
    let pods: Vec<PodSpec> = [
        "node1", "node1", "node2", "node3", "node3", "node4", "node5",
    ]
    .iter()
    .map(|x| on(x, "S1").obj())
    .collect();
    assert_eq!(ipa_scores(&nodes, &pods, &p), [100, 0, 100, 100, 0]);
}

// scoring_test.go "Affinity and Anti Affinity and symmetry: considered only
// preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry".
#[test]
fn preferred_affinity_anti_affinity_and_symmetry() {
    let p = stay_with_s1_in_region_away_from_s2_in_az(pod().label("security", "S1")).obj();
    let nodes = [
        n("node1", RG_CHINA),
        n("node2", AZ1),
        n("node3", RG_INDIA),
        n("node4", AZ2),
    ];
    let pods = [
        on("node1", "S1").obj(),
        on("node2", "S2").obj(),
        stay_with_s1_in_region_away_from_s2_in_az(pod().node("node3")).obj(),
        away_from_s1_in_az(pod().node("node4")).obj(),
    ];
    assert_eq!(ipa_scores(&nodes, &pods, &p), [100, 0, 100, 0]);
}

// scoring_test.go "Avoid panic when partial nodes in a topology don't have pods with affinity".
#[test]
fn preferred_partial_topology() {
    let nodes = [n("node1", RG_CHINA), n("node2", RG_CHINA)];
    let pods = [
        on("node1", "S1").obj(),
        stay_with_s1_in_region_away_from_s2_in_az(pod().node("node2")).obj(),
    ];
    assert_eq!(
        ipa_scores(&nodes, &pods, &pod().label("security", "S1").obj()),
        [0, 0]
    );
}

// scoring_test.go "Affinity with pods matching NamespaceSelector" and "... both NamespaceSelector
// and Namespaces fields".
#[test]
fn preferred_affinity_namespace_selector() {
    let p = ns_selector_term(
        false,
        pod().namespace("subteam1.team1").label("security", "S1"),
    )
    .obj();
    let nodes = [n("node1", RG_CHINA), n("node2", RG_INDIA)];
    let pods = [
        on("node1", "S1").namespace("subteam1.team1").obj(),
        on("node1", "S1").namespace("subteam1.team1").obj(),
        on("node1", "S1").namespace("subteam1.team2").obj(),
        on("node2", "S1").namespace("subteam2.team1").obj(),
    ];
    assert_eq!(ipa_scores(&nodes, &pods, &p), [100, 0]);
    let pods = [
        on("node1", "S1").namespace("subteam1.team1").obj(),
        on("node1", "S1").namespace("subteam1.team1").obj(),
        on("node1", "S1").namespace("subteam2.team2").obj(),
        on("node2", "S1").namespace("subteam2.team1").obj(),
    ];
    assert_eq!(ipa_scores(&nodes, &pods, &p), [100, 0]);
}

fn ipa_filter(nodes: &[NodeSpec], pods: &[PodSpec], p: &PodSpec) -> Vec<Option<Vec<String>>> {
    filter_of("InterPodAffinity", nodes, pods, p)
}

const AFFINITY: &str = "node(s) didn't match pod affinity rules";
const ANTI: &str = "node(s) didn't match pod anti-affinity rules";
const EXISTING: &str = "node(s) didn't satisfy existing pods anti-affinity rules";

fn r(s: &str) -> Option<Vec<String>> {
    Some(vec![s.to_string()])
}

// filtering_test.go TestRequiredAffinitySingleNode.
#[test]
fn required_affinity_single_node() {
    let node1 = || {
        n(
            "node1",
            &[("region", "r1"), ("zone", "z11"), ("hostname", "h1")],
        )
    };
    // "A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods"
    assert_eq!(ipa_filter(&[node1()], &[], &pod().obj()), vec![None]);
    // "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod"
    let existing = pod().node("node1").label("service", "securityscan").obj();
    let p = pod()
        .pod_affinity(
            "region",
            sel_expr("service", In, &["securityscan", "value2"]),
        )
        .obj();
    assert_eq!(
        ipa_filter(&[node1()], std::slice::from_ref(&existing), &p),
        vec![None]
    );
    // "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod"
    let p = pod()
        .pod_affinity(
            "region",
            sel_expr("service", NotIn, &["securityscan3", "value3"]),
        )
        .obj();
    assert_eq!(
        ipa_filter(&[node1()], std::slice::from_ref(&existing), &p),
        vec![None]
    );
    // "Does not satisfy the PodAffinity with labelSelector because of diff Namespace"
    let mut p = pod().obj();
    p.affinity.pod_affinity_required.push(PodAffinityTerm {
        label_selector: Some(sel_expr("service", In, &["securityscan", "value2"])),
        namespaces: vec!["DiffNameSpace".into()],
        topology_key: "region".into(),
        ..PodAffinityTerm::default()
    });
    assert_eq!(
        ipa_filter(&[node1()], std::slice::from_ref(&existing), &p),
        vec![r(AFFINITY)]
    );
    // "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod"
    let p = pod()
        .pod_affinity(
            "region",
            sel_expr("service", In, &["antivirusscan", "value2"]),
        )
        .obj();
    assert_eq!(
        ipa_filter(&[node1()], std::slice::from_ref(&existing), &p),
        vec![r(AFFINITY)]
    );
    // "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod"
    let p = pod()
        .pod_affinity(
            "region",
            sel_expr("service", In, &["securityscan", "value2"]),
        )
        .pod_anti_affinity("zone", sel_expr("service", In, &["securityscan", "value2"]))
        .obj();
    assert_eq!(
        ipa_filter(&[node1()], std::slice::from_ref(&existing), &p),
        vec![r(ANTI)]
    );
    // "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod"
    let existing_anti = pod()
        .node("node1")
        .label("service", "securityscan")
        .pod_anti_affinity("zone", sel_expr("security", In, &["S1"]))
        .obj();
    let p = pod()
        .label("security", "S1")
        .pod_affinity(
            "region",
            sel_expr("service", In, &["securityscan", "value2"]),
        )
        .pod_anti_affinity(
            "zone",
            sel_expr("service", In, &["antivirusscan", "value2"]),
        )
        .obj();
    assert_eq!(
        ipa_filter(&[node1()], &[existing_anti], &p),
        vec![r(EXISTING)]
    );
    // "pod matches its own Label in PodAffinity and that matches the existing pod Labels"
    let p = pod()
        .label("service", "securityscan")
        .pod_affinity("region", sel_expr("service", In, &["securityscan"]))
        .obj();
    assert_eq!(ipa_filter(&[node1()], &[], &p), vec![None]);
    // "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod"
    let existing_anti = pod()
        .node("node1")
        .label("service", "securityscan")
        .pod_anti_affinity("zone", sel_expr("security", In, &["S1"]))
        .obj();
    assert_eq!(
        ipa_filter(
            &[node1()],
            std::slice::from_ref(&existing_anti),
            &pod().label("security", "S1").obj()
        ),
        vec![r(EXISTING)]
    );
    // "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod"
    assert_eq!(
        ipa_filter(
            &[node1()],
            &[existing_anti],
            &pod().label("security", "S2").obj()
        ),
        vec![None]
    );
    // "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere."
    let p = pod()
        .label("foo", "bar")
        .pod_affinity("zone", sel(&[("foo", "bar")]))
        .obj();
    assert_eq!(
        ipa_filter(&[n("node1", &[("zone", "z11")])], &[], &p),
        vec![None]
    );
    // A node without the topology key fails affinity even for the first pod.
    assert_eq!(
        ipa_filter(&[n("node1", &[("region", "r1")])], &[], &p),
        vec![r(AFFINITY)]
    );
}

// filtering_test.go TestRequiredAffinityMultipleNodes "A pod can be scheduled onto all the nodes
// that have the same topology key & label value with one of them has an existing pod that matches
// the affinity rules" and "NodeA and nodeB have same topologyKey and label value. NodeA has an
// existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA
// and nodeB" (anti-affinity).
#[test]
fn required_affinity_multiple_nodes() {
    let nodes = [
        n(
            "nodeA",
            &[("region", "r1"), ("zone", "z1"), ("hostname", "h1")],
        ),
        n(
            "nodeB",
            &[("region", "r1"), ("zone", "z2"), ("hostname", "h2")],
        ),
    ];
    let existing = pod().node("nodeA").label("foo", "bar").obj();
    let p = pod()
        .pod_affinity("region", sel_expr("foo", In, &["bar"]))
        .obj();
    assert_eq!(
        ipa_filter(&nodes, std::slice::from_ref(&existing), &p),
        vec![None, None]
    );
    let p = pod()
        .pod_anti_affinity("region", sel_expr("foo", In, &["abc"]))
        .pod_anti_affinity("region", sel(&[("foo", "bar")]))
        .obj();
    assert_eq!(ipa_filter(&nodes, &[existing], &p), vec![r(ANTI), r(ANTI)]);
    // "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod."
    let nodes = [
        n(
            "nodeA",
            &[("region", "r1"), ("zone", "z1"), ("hostname", "nodeA")],
        ),
        n(
            "nodeB",
            &[("region", "r1"), ("zone", "z2"), ("hostname", "nodeB")],
        ),
    ];
    let existing = pod()
        .node("nodeA")
        .label("foo", "bar")
        .label("service", "securityscan")
        .obj();
    let p = pod()
        .pod_anti_affinity("zone", sel_expr("foo", In, &["bar"]))
        .pod_anti_affinity("zone", sel_expr("service", In, &["securityscan"]))
        .obj();
    assert_eq!(ipa_filter(&nodes, &[existing], &p), vec![r(ANTI), None]);
}

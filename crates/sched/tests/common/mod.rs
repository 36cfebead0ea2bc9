//! Builders in the spirit of kube-scheduler's `st.MakePod()` / `st.MakeNode()` test wrappers.
#![allow(dead_code)]

use kubewasm_sched::*;

pub fn labels(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

pub struct NodeB(pub NodeSpec);

pub fn node(name: &str) -> NodeB {
    NodeB(NodeSpec {
        name: name.into(),
        ..NodeSpec::default()
    })
}

impl NodeB {
    /// `Capacity(map{cpu, memory})` with cpu in milli-units as st's tests write "4000" cpu
    /// meaning 4000 cores; we take the milli value directly.
    pub fn capacity(mut self, milli_cpu: i64, memory: i64) -> Self {
        self.0.allocatable.milli_cpu = milli_cpu;
        self.0.allocatable.memory = memory;
        self.0.allowed_pod_number = 110;
        self
    }
    pub fn pods(mut self, n: i64) -> Self {
        self.0.allowed_pod_number = n;
        self
    }
    pub fn scalar(mut self, name: &str, q: i64) -> Self {
        self.0.allocatable.scalar.insert(name.into(), q);
        self
    }
    pub fn label(mut self, k: &str, v: &str) -> Self {
        self.0.labels.push((k.into(), v.into()));
        self
    }
    pub fn taint(mut self, k: &str, v: &str, effect: TaintEffect) -> Self {
        self.0.taints.push(Taint {
            key: k.into(),
            value: v.into(),
            effect,
        });
        self
    }
    pub fn unschedulable(mut self) -> Self {
        self.0.unschedulable = true;
        self
    }
    pub fn image(mut self, names: &[&str], size: i64) -> Self {
        self.0.images.push(ContainerImage {
            names: names.iter().map(|s| s.to_string()).collect(),
            size_bytes: size,
        });
        self
    }
    pub fn obj(self) -> NodeSpec {
        self.0
    }
}

pub struct PodB(pub PodSpec);

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

pub fn pod() -> PodB {
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    PodB(PodSpec {
        namespace: "default".into(),
        name: format!("pod-{n}"),
        ..PodSpec::default()
    })
}

impl PodB {
    pub fn name(mut self, n: &str) -> Self {
        self.0.name = n.into();
        self
    }
    pub fn namespace(mut self, n: &str) -> Self {
        self.0.namespace = n.into();
        self
    }
    pub fn node(mut self, n: &str) -> Self {
        self.0.node_name = Some(n.into());
        self
    }
    pub fn label(mut self, k: &str, v: &str) -> Self {
        self.0.labels.push((k.into(), v.into()));
        self
    }
    /// `Req(map{cpu, memory})`: one container with both requests set.
    pub fn req(mut self, milli_cpu: i64, memory: i64) -> Self {
        self.0
            .containers
            .push(Container::with_requests(milli_cpu, memory));
        self
    }
    /// A container requesting only the given extended resource.
    pub fn req_scalar(mut self, name: &str, q: i64) -> Self {
        let mut c = Container::default();
        c.requests.scalar.insert(name.into(), q);
        self.0.containers.push(c);
        self
    }
    pub fn container(mut self, image: &str) -> Self {
        self.0.containers.push(Container {
            image: image.into(),
            ..Container::default()
        });
        self
    }
    pub fn priority(mut self, p: i32) -> Self {
        self.0.priority = p;
        self
    }
    pub fn host_port(mut self, port: i32, protocol: Protocol, ip: &str) -> Self {
        self.0.containers.push(Container {
            ports: vec![ContainerPort {
                host_port: port,
                protocol,
                host_ip: ip.into(),
            }],
            ..Container::default()
        });
        self
    }
    pub fn toleration(
        mut self,
        k: &str,
        op: TolerationOperator,
        v: &str,
        effect: Option<TaintEffect>,
    ) -> Self {
        self.0.tolerations.push(Toleration {
            key: k.into(),
            operator: op,
            value: v.into(),
            effect,
        });
        self
    }
    pub fn node_selector(mut self, k: &str, v: &str) -> Self {
        self.0.node_selector.push((k.into(), v.into()));
        self
    }
    pub fn node_affinity_in(mut self, key: &str, values: &[&str]) -> Self {
        self.0.affinity.node_required = Some(vec![NodeSelectorTerm {
            match_expressions: vec![nreq(key, NodeSelectorOperator::In, values)],
            match_fields: vec![],
        }]);
        self
    }
    pub fn required_node_terms(mut self, terms: Vec<NodeSelectorTerm>) -> Self {
        self.0.affinity.node_required = Some(terms);
        self
    }
    pub fn preferred_node(mut self, weight: i32, term: NodeSelectorTerm) -> Self {
        self.0
            .affinity
            .node_preferred
            .push(PreferredSchedulingTerm {
                weight,
                preference: term,
            });
        self
    }
    pub fn pod_affinity(mut self, key: &str, sel: LabelSelector) -> Self {
        self.0.affinity.pod_affinity_required.push(term(key, sel));
        self
    }
    pub fn pod_anti_affinity(mut self, key: &str, sel: LabelSelector) -> Self {
        self.0
            .affinity
            .pod_anti_affinity_required
            .push(term(key, sel));
        self
    }
    pub fn preferred_pod_affinity(mut self, weight: i32, key: &str, sel: LabelSelector) -> Self {
        self.0
            .affinity
            .pod_affinity_preferred
            .push(WeightedPodAffinityTerm {
                weight,
                term: term(key, sel),
            });
        self
    }
    pub fn preferred_pod_anti_affinity(
        mut self,
        weight: i32,
        key: &str,
        sel: LabelSelector,
    ) -> Self {
        self.0
            .affinity
            .pod_anti_affinity_preferred
            .push(WeightedPodAffinityTerm {
                weight,
                term: term(key, sel),
            });
        self
    }
    pub fn spread(
        mut self,
        max_skew: i32,
        key: &str,
        when: WhenUnsatisfiable,
        sel: Option<LabelSelector>,
    ) -> Self {
        self.0
            .topology_spread_constraints
            .push(TopologySpreadConstraint {
                max_skew,
                topology_key: key.into(),
                when_unsatisfiable: when,
                label_selector: sel,
                ..TopologySpreadConstraint::default()
            });
        self
    }
    pub fn spread_full(mut self, c: TopologySpreadConstraint) -> Self {
        self.0.topology_spread_constraints.push(c);
        self
    }
    pub fn terminating(mut self) -> Self {
        self.0.terminating = true;
        self
    }
    pub fn obj(self) -> PodSpec {
        self.0
    }
}

pub fn term(key: &str, sel: LabelSelector) -> PodAffinityTerm {
    PodAffinityTerm {
        label_selector: Some(sel),
        topology_key: key.into(),
        ..PodAffinityTerm::default()
    }
}

pub fn nreq(key: &str, op: NodeSelectorOperator, values: &[&str]) -> NodeSelectorRequirement {
    NodeSelectorRequirement {
        key: key.into(),
        operator: op,
        values: values.iter().map(|s| s.to_string()).collect(),
    }
}

pub fn nterm(reqs: Vec<NodeSelectorRequirement>) -> NodeSelectorTerm {
    NodeSelectorTerm {
        match_expressions: reqs,
        match_fields: vec![],
    }
}

/// `matchLabels` selector.
pub fn sel(pairs: &[(&str, &str)]) -> LabelSelector {
    LabelSelector {
        match_labels: labels(pairs),
        match_expressions: vec![],
    }
}

pub fn sel_expr(key: &str, op: SelectorOperator, values: &[&str]) -> LabelSelector {
    LabelSelector {
        match_labels: vec![],
        match_expressions: vec![LabelSelectorRequirement {
            key: key.into(),
            operator: op,
            values: values.iter().map(|s| s.to_string()).collect(),
        }],
    }
}

/// A profile running only `plugin` at score (weight 1) and no filter.
pub fn only_score(plugin: &str) -> ProfileConfig {
    ProfileConfig {
        plugins: PluginsConfig {
            multi_point: PluginSet {
                enabled: vec![],
                disabled: vec![PluginRef::new("*")],
            },
            score: PluginSet {
                enabled: vec![PluginRef::weighted(plugin, 1)],
                disabled: vec![],
            },
            ..PluginsConfig::default()
        },
        ..ProfileConfig::default()
    }
}

/// A profile running only `plugin` as a filter.
pub fn only_filter(plugin: &str) -> ProfileConfig {
    ProfileConfig {
        plugins: PluginsConfig {
            multi_point: PluginSet {
                enabled: vec![],
                disabled: vec![PluginRef::new("*")],
            },
            filter: PluginSet {
                enabled: vec![PluginRef::new(plugin)],
                disabled: vec![],
            },
            ..PluginsConfig::default()
        },
        ..ProfileConfig::default()
    }
}

pub fn scheduler(cfg: &ProfileConfig, nodes: &[NodeSpec], pods: &[PodSpec]) -> Scheduler {
    let mut s = Scheduler::new(Profile::from_config(cfg).unwrap(), 1).unwrap();
    for n in nodes {
        s.upsert_node(n).unwrap();
    }
    for p in pods {
        s.add_pod(p).unwrap();
    }
    s
}

/// Normalized scores of `plugin` per node name, in node order (nodes all feasible).
pub fn plugin_scores(
    cfg: &ProfileConfig,
    nodes: &[NodeSpec],
    pods: &[PodSpec],
    pod: &PodSpec,
) -> Vec<(String, i64)> {
    let mut s = scheduler(cfg, nodes, pods);
    let e = s.explain(pod).unwrap();
    let mut out: Vec<(String, i64)> = e
        .nodes
        .iter()
        .map(|n| {
            (
                n.node.clone(),
                n.scores
                    .first()
                    .map_or(-1, |p| if p.skipped { 0 } else { p.normalized }),
            )
        })
        .collect();
    let order: Vec<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
    out.sort_by_key(|(n, _)| order.iter().position(|o| o == n));
    out
}

/// Normalized scores with only `plugin` enabled.
pub fn scores_of(plugin: &str, nodes: &[NodeSpec], pods: &[PodSpec], pod: &PodSpec) -> Vec<i64> {
    plugin_scores(&only_score(plugin), nodes, pods, pod)
        .into_iter()
        .map(|(_, s)| s)
        .collect()
}

/// Filter verdict per node with only `plugin` enabled: `None` = pass, `Some(reasons)`.
pub fn filter_of(
    plugin: &str,
    nodes: &[NodeSpec],
    pods: &[PodSpec],
    pod: &PodSpec,
) -> Vec<Option<Vec<String>>> {
    let mut s = scheduler(&only_filter(plugin), nodes, pods);
    let e = s.explain(pod).unwrap();
    let order: Vec<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
    let mut v: Vec<(usize, Option<Vec<String>>)> = e
        .nodes
        .iter()
        .map(|n| {
            let f = n.filters.first().unwrap();
            let verdict = if f.code == "Success" || f.code == "Skip" {
                None
            } else {
                Some(f.reasons.clone())
            };
            (order.iter().position(|o| *o == n.node).unwrap(), verdict)
        })
        .collect();
    v.sort_by_key(|(i, _)| *i);
    v.into_iter().map(|(_, r)| r).collect()
}

//! The scheduler's in-memory cluster table (kube-scheduler's cache + snapshot in one): nodes and
//! the pods placed on them, updated incrementally, with the indexes the plugins read.

use crate::error::SchedError;
use crate::hash::FxHashMap;
use crate::intern::{Interner, Sym};
use crate::labels::Labels;
use crate::matcher_cache::{MatcherCache, MatcherKey};
use crate::node::NodeSpec;
use crate::node_hot::NodeHot;
use crate::node_selector::OBJECT_NAME_FIELD;
use crate::node_tree::{NodeTree, ZoneKey};
use crate::pod_info::{HostPort, PodInfo};
use crate::resource::NodeResources;
use crate::taint::TaintId;
use crate::term_index::TermIndex;

/// `v1.LabelHostname`.
pub const LABEL_HOSTNAME: &str = "kubernetes.io/hostname";
/// `v1.LabelTopologyZone`.
pub const LABEL_ZONE: &str = "topology.kubernetes.io/zone";
/// `v1.LabelTopologyRegion`.
pub const LABEL_REGION: &str = "topology.kubernetes.io/region";
/// `v1.LabelFailureDomainBetaZone`.
pub const LABEL_ZONE_BETA: &str = "failure-domain.beta.kubernetes.io/zone";
/// `v1.LabelFailureDomainBetaRegion`.
pub const LABEL_REGION_BETA: &str = "failure-domain.beta.kubernetes.io/region";
/// `v1.TaintNodeUnschedulable`.
pub const TAINT_NODE_UNSCHEDULABLE: &str = "node.kubernetes.io/unschedulable";

/// Ids of strings the engine itself needs, interned once.
#[derive(Debug, Clone, Copy)]
pub struct WellKnown {
    pub empty: Sym,
    pub cpu: Sym,
    pub memory: Sym,
    pub ephemeral_storage: Sym,
    pub hostname: Sym,
    pub zone: Sym,
    pub region: Sym,
    pub zone_beta: Sym,
    pub region_beta: Sym,
    pub unschedulable_taint: Sym,
    pub name_field: Sym,
    pub any_ip: Sym,
}

impl WellKnown {
    fn new(i: &mut Interner) -> Self {
        WellKnown {
            empty: i.intern(""),
            cpu: i.intern("cpu"),
            memory: i.intern("memory"),
            ephemeral_storage: i.intern("ephemeral-storage"),
            hostname: i.intern(LABEL_HOSTNAME),
            zone: i.intern(LABEL_ZONE),
            region: i.intern(LABEL_REGION),
            zone_beta: i.intern(LABEL_ZONE_BETA),
            region_beta: i.intern(LABEL_REGION_BETA),
            unschedulable_taint: i.intern(TAINT_NODE_UNSCHEDULABLE),
            name_field: i.intern(OBJECT_NAME_FIELD),
            any_ip: i.intern("0.0.0.0"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct NodeEntry {
    pub name: String,
    pub name_sym: Sym,
    pub labels: Labels,
    /// `metadata.name` as a field set, for matchFields.
    pub fields: Labels,
    pub taints: Vec<TaintId>,
    pub unschedulable: bool,
    pub res: NodeResources,
    /// `NonZeroRequested` (scoring).
    pub non_zero_cpu: i64,
    pub non_zero_memory: i64,
    /// Pod slots on this node.
    pub pods: Vec<u32>,
    pub ports: Vec<HostPort>,
    /// Every image name on the node, sorted.
    pub images: Vec<Sym>,
    pub zone: ZoneKey,
    /// Changes whenever the node or its pods change (score caches key on it).
    pub generation: u64,
    /// This node's slot in the table.
    pub slot: u32,
}

impl NodeEntry {
    #[inline]
    pub fn has_image(&self, image: Sym) -> bool {
        self.images.binary_search(&image).is_ok()
    }
}

#[derive(Debug, Clone)]
pub struct PodEntry {
    pub info: PodInfo,
    pub node: u32,
    /// Placed by the scheduler and not yet confirmed bound.
    pub assumed: bool,
}

/// `ImageStateSummary`: size (from the first node reporting it) and how many nodes have it.
#[derive(Debug, Clone, Copy)]
pub struct ImageState {
    pub size: i64,
    pub num_nodes: i64,
}

#[derive(Debug, Clone)]
pub struct Cluster {
    pub interner: Interner,
    pub wk: WellKnown,
    nodes: Vec<Option<NodeEntry>>,
    free_nodes: Vec<u32>,
    node_by_name: FxHashMap<String, u32>,
    pods: Vec<Option<PodEntry>>,
    free_pods: Vec<u32>,
    pod_by_key: FxHashMap<String, u32>,
    ns_labels: FxHashMap<Sym, Labels>,
    empty_labels: Labels,
    tree: NodeTree,
    images: FxHashMap<Sym, ImageState>,
    pub matchers: MatcherCache,
    pub terms: TermIndex,
    topology: FxHashMap<Sym, Vec<Sym>>,
    generation: u64,
    hot: Vec<NodeHot>,
    domain_nodes: FxHashMap<Sym, FxHashMap<Sym, u32>>,
    key_node_totals: FxHashMap<Sym, u32>,
    prefer_taint_nodes: usize,
}

/// Marks "no such label" in per-node topology value tables.
pub const NO_VALUE: Sym = Sym::MAX;

impl Default for Cluster {
    fn default() -> Self {
        Cluster::new()
    }
}

impl Cluster {
    pub fn new() -> Cluster {
        let mut interner = Interner::default();
        let wk = WellKnown::new(&mut interner);
        Cluster {
            interner,
            wk,
            nodes: Vec::new(),
            free_nodes: Vec::new(),
            node_by_name: FxHashMap::default(),
            pods: Vec::new(),
            free_pods: Vec::new(),
            pod_by_key: FxHashMap::default(),
            ns_labels: FxHashMap::default(),
            empty_labels: Labels::default(),
            tree: NodeTree::default(),
            images: FxHashMap::default(),
            matchers: MatcherCache::default(),
            terms: TermIndex::default(),
            topology: FxHashMap::default(),
            generation: 0,
            hot: Vec::new(),
            domain_nodes: FxHashMap::default(),
            key_node_totals: FxHashMap::default(),
            prefer_taint_nodes: 0,
        }
    }

    // ----- reads -----

    #[inline]
    pub fn node(&self, slot: u32) -> Option<&NodeEntry> {
        self.nodes.get(slot as usize).and_then(Option::as_ref)
    }

    /// The compact numbers of the node in `slot`.
    #[inline]
    pub fn hot(&self, slot: u32) -> Option<&NodeHot> {
        self.hot.get(slot as usize)
    }

    fn sync_hot(&mut self, slot: u32) {
        let i = slot as usize;
        if self.hot.len() <= i {
            self.hot.resize(i + 1, NodeHot::default());
        }
        let value = self.node(slot).map(NodeHot::of).unwrap_or_default();
        if let Some(h) = self.hot.get_mut(i) {
            let prefer = |h: &NodeHot| usize::from(h.flags & crate::node_hot::PREFER_TAINTS != 0);
            self.prefer_taint_nodes =
                (self.prefer_taint_nodes + prefer(&value)).saturating_sub(prefer(h));
            *h = value;
        }
    }

    /// Number of nodes with a PreferNoSchedule taint.
    pub fn prefer_taint_nodes(&self) -> usize {
        self.prefer_taint_nodes
    }

    pub fn node_slot(&self, name: &str) -> Option<u32> {
        self.node_by_name.get(name).copied()
    }

    pub fn pod(&self, slot: u32) -> Option<&PodEntry> {
        self.pods.get(slot as usize).and_then(Option::as_ref)
    }

    pub fn pod_by_key(&self, key: &str) -> Option<&PodEntry> {
        self.pod_by_key.get(key).and_then(|&s| self.pod(s))
    }

    pub fn num_nodes(&self) -> usize {
        self.tree.len()
    }

    pub fn num_pods(&self) -> usize {
        self.pod_by_key.len()
    }

    /// Number of node slots (an upper bound for slot ids).
    pub fn node_slots(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes in kube-scheduler's snapshot order.
    pub fn node_list(&mut self) -> &[u32] {
        self.tree.refresh();
        self.tree.cached()
    }

    /// Rebuilds the snapshot order if nodes came or went.
    pub fn refresh_list(&mut self) {
        self.tree.refresh();
    }

    /// The snapshot order as of the last `refresh_list`.
    pub fn list(&self) -> &[u32] {
        self.tree.cached()
    }

    pub fn ns_labels(&self, ns: Sym) -> &Labels {
        self.ns_labels.get(&ns).unwrap_or(&self.empty_labels)
    }

    pub fn image(&self, image: Sym) -> Option<ImageState> {
        self.images.get(&image).copied()
    }

    /// Every live pod, with the slot of its node.
    pub fn pods(&self) -> impl Iterator<Item = &PodEntry> {
        self.pods.iter().flatten()
    }

    // ----- indexes -----

    /// Index of the per-node counts for `key`, built on first use.
    pub fn matcher(&mut self, key: MatcherKey) -> usize {
        if let Some(i) = self.matchers.find(&key) {
            return i;
        }
        let mut per_node = vec![0u32; self.nodes.len()];
        for p in self.pods.iter().flatten() {
            let info = &p.info;
            let ns_labels = self
                .ns_labels
                .get(&info.namespace)
                .unwrap_or(&self.empty_labels);
            if key.matches(
                info.namespace,
                &info.labels,
                info.terminating,
                ns_labels,
                &self.interner,
            ) {
                if let Some(c) = per_node.get_mut(p.node as usize) {
                    *c += 1;
                }
            }
        }
        self.matchers.insert(key, per_node)
    }

    /// Makes sure `domain_counts(m, key)` is available: matching pods of matcher `m` per value of
    /// `key`, over nodes carrying the key; kept up to date as pods come and go.
    pub fn ensure_domain_counts(&mut self, m: usize, key: Sym) {
        if self.matchers.domains(m, key).is_some() {
            return;
        }
        self.ensure_topology_key(key);
        let mut counts: FxHashMap<Sym, i64> = FxHashMap::default();
        let values = self.topology_values(key);
        for (&c, &v) in self.matchers.counts(m).iter().zip(values) {
            if c > 0 && v != NO_VALUE {
                *counts.entry(v).or_insert(0) += i64::from(c);
            }
        }
        self.matchers.set_domains(m, key, counts);
    }

    /// See `ensure_domain_counts`; `None` if not ensured.
    #[inline]
    pub fn domain_counts(&self, m: usize, key: Sym) -> Option<&FxHashMap<Sym, i64>> {
        self.matchers.domains(m, key)
    }

    /// Number of nodes per value of `key` (the topology domains), after `ensure_topology_key`.
    pub fn domain_nodes(&self, key: Sym) -> Option<&FxHashMap<Sym, u32>> {
        self.domain_nodes.get(&key)
    }

    fn domain_node_delta(&mut self, key: Sym, value: Sym, delta: i32) {
        if value == NO_VALUE {
            return;
        }
        if let Some(d) = self.domain_nodes.get_mut(&key) {
            let c = d.entry(value).or_insert(0);
            *c = c.saturating_add_signed(delta);
            if *c == 0 {
                d.remove(&value);
            }
        }
        if let Some(t) = self.key_node_totals.get_mut(&key) {
            *t = t.saturating_add_signed(delta);
        }
    }

    /// Every node carrying `key` has its own value (hostname-like): a domain is one node, so
    /// per-node counts are per-domain counts. Needs `ensure_topology_key(key)`.
    pub fn key_is_unique(&self, key: Sym) -> bool {
        match (self.domain_nodes.get(&key), self.key_node_totals.get(&key)) {
            (Some(d), Some(&total)) => d.len() == total as usize,
            _ => false,
        }
    }

    /// Moves node `slot`'s topology values to those of `labels` (`None`: the node is gone).
    fn set_topology_values(&mut self, slot: u32, labels: Option<&Labels>) {
        let keys: Vec<Sym> = self.topology.keys().copied().collect();
        for key in keys {
            let new = labels.and_then(|l| l.get(key)).unwrap_or(NO_VALUE);
            let old = match self.topology.get_mut(&key) {
                Some(values) => {
                    if values.len() <= slot as usize {
                        values.resize(slot as usize + 1, NO_VALUE);
                    }
                    match values.get_mut(slot as usize) {
                        Some(v) => std::mem::replace(v, new),
                        None => continue,
                    }
                }
                None => continue,
            };
            if old != new {
                self.domain_node_delta(key, old, -1);
                self.domain_node_delta(key, new, 1);
            }
        }
    }

    /// Makes sure `topology_values(key)` is available.
    pub fn ensure_topology_key(&mut self, key: Sym) {
        if self.topology.contains_key(&key) {
            return;
        }
        let values = self
            .nodes
            .iter()
            .map(|n| {
                n.as_ref()
                    .and_then(|n| n.labels.get(key))
                    .unwrap_or(NO_VALUE)
            })
            .collect::<Vec<Sym>>();
        let mut domains: FxHashMap<Sym, u32> = FxHashMap::default();
        for &v in values.iter().filter(|&&v| v != NO_VALUE) {
            *domains.entry(v).or_insert(0) += 1;
        }
        let total = domains.values().sum();
        self.key_node_totals.insert(key, total);
        self.domain_nodes.insert(key, domains);
        self.topology.insert(key, values);
    }

    /// Value of label `key` per node slot (`NO_VALUE` when absent); empty if never ensured.
    #[inline]
    pub fn topology_values(&self, key: Sym) -> &[Sym] {
        self.topology.get(&key).map(Vec::as_slice).unwrap_or(&[])
    }

    // ----- mutations -----

    /// Adds a node, or updates the node of that name in place (its pods stay).
    pub fn upsert_node(&mut self, spec: &NodeSpec) -> Result<u32, SchedError> {
        if spec.name.is_empty() {
            return Err(SchedError::InvalidField(
                "node name must not be empty".into(),
            ));
        }
        let name_sym = self.interner.intern(&spec.name);
        let labels = Labels::from_pairs(&spec.labels, &mut self.interner);
        let fields = Labels::from_pairs(
            &[(OBJECT_NAME_FIELD.to_string(), spec.name.clone())],
            &mut self.interner,
        );
        let taints = spec
            .taints
            .iter()
            .map(|t| TaintId::new(t, &mut self.interner))
            .collect();
        let mut images: Vec<Sym> = spec
            .images
            .iter()
            .flat_map(|img| img.names.iter())
            .map(|n| self.interner.intern(n))
            .collect();
        images.sort_unstable();
        images.dedup();
        let zone = self.zone_key(&labels);
        let res_alloc = spec.allocatable.clone();
        match self.node_by_name.get(&spec.name).copied() {
            Some(slot) => {
                let Some(Some(old)) = self.nodes.get(slot as usize) else {
                    return Err(SchedError::UnknownNode(spec.name.clone()));
                };
                let (old_zone, old_labels, old_images) =
                    (old.zone, old.labels.clone(), old.images.clone());
                let pod_slots = old.pods.clone();
                if old_labels != labels {
                    for &ps in &pod_slots {
                        if let Some(Some(p)) = self.pods.get(ps as usize) {
                            self.terms.on_pod(&p.info, slot, &old_labels, -1);
                            self.terms.on_pod(&p.info, slot, &labels, 1);
                        }
                    }
                }
                self.remove_images(&old_images);
                self.add_images(spec, &images);
                if old_zone != zone {
                    self.tree.remove(old_zone, slot);
                    self.tree.add(zone, slot);
                }
                self.set_topology_values(slot, Some(&labels));
                if old_labels != labels {
                    self.matchers.clear_domains();
                }
                if let Some(Some(n)) = self.nodes.get_mut(slot as usize) {
                    n.labels = labels;
                    n.fields = fields;
                    n.taints = taints;
                    n.unschedulable = spec.unschedulable;
                    n.res.allocatable = res_alloc;
                    n.res.allowed_pod_number = spec.allowed_pod_number;
                    n.images = images;
                    n.zone = zone;
                    self.generation += 1;
                    n.generation = self.generation;
                }
                self.sync_hot(slot);
                Ok(slot)
            }
            None => {
                self.add_images(spec, &images);
                let entry = NodeEntry {
                    name: spec.name.clone(),
                    name_sym,
                    labels,
                    fields,
                    taints,
                    unschedulable: spec.unschedulable,
                    res: NodeResources {
                        allocatable: res_alloc,
                        allowed_pod_number: spec.allowed_pod_number,
                        ..NodeResources::default()
                    },
                    non_zero_cpu: 0,
                    non_zero_memory: 0,
                    generation: 0,
                    slot: 0,
                    pods: Vec::new(),
                    ports: Vec::new(),
                    images,
                    zone,
                };
                let slot = match self.free_nodes.pop() {
                    Some(s) => s,
                    None => {
                        self.nodes.push(None);
                        (self.nodes.len() - 1) as u32
                    }
                };
                self.set_topology_values(slot, Some(&entry.labels));
                self.generation += 1;
                let entry = NodeEntry {
                    generation: self.generation,
                    slot,
                    ..entry
                };
                if let Some(s) = self.nodes.get_mut(slot as usize) {
                    *s = Some(entry);
                }
                self.node_by_name.insert(spec.name.clone(), slot);
                self.tree.add(zone, slot);
                self.sync_hot(slot);
                Ok(slot)
            }
        }
    }

    /// Removes a node and every pod on it.
    pub fn remove_node(&mut self, name: &str) -> Result<(), SchedError> {
        let slot = self
            .node_slot(name)
            .ok_or_else(|| SchedError::UnknownNode(name.into()))?;
        let pod_keys: Vec<String> = self
            .node(slot)
            .map(|n| {
                n.pods
                    .iter()
                    .filter_map(|&p| self.pod(p))
                    .map(|p| p.info.key.clone())
                    .collect()
            })
            .unwrap_or_default();
        for key in pod_keys {
            self.remove_pod(&key)?;
        }
        let Some(entry) = self.nodes.get_mut(slot as usize).and_then(Option::take) else {
            return Err(SchedError::UnknownNode(name.into()));
        };
        self.remove_images(&entry.images);
        self.tree.remove(entry.zone, slot);
        self.set_topology_values(slot, None);
        self.matchers.clear_slot(slot);
        self.sync_hot(slot);
        self.node_by_name.remove(name);
        self.free_nodes.push(slot);
        Ok(())
    }

    /// Places a compiled pod on the node `node_slot`.
    pub fn add_pod(
        &mut self,
        info: PodInfo,
        node_slot: u32,
        assumed: bool,
    ) -> Result<u32, SchedError> {
        if self.pod_by_key.contains_key(&info.key) {
            return Err(SchedError::DuplicatePod(info.key));
        }
        let Some(Some(node)) = self.nodes.get_mut(node_slot as usize) else {
            return Err(SchedError::UnknownNode(format!("node slot {node_slot}")));
        };
        node.res.requested.add(&info.requests);
        node.res.pod_count += 1;
        self.generation += 1;
        node.generation = self.generation;
        node.non_zero_cpu += info.non_zero_cpu;
        node.non_zero_memory += info.non_zero_memory;
        node.ports.extend_from_slice(&info.host_ports);
        let ns_labels = self
            .ns_labels
            .get(&info.namespace)
            .unwrap_or(&self.empty_labels);
        self.matchers.on_pod(
            node_slot,
            &node.labels,
            (info.namespace, &info.labels, info.terminating),
            ns_labels,
            1,
            &self.interner,
        );
        self.terms.on_pod(&info, node_slot, &node.labels, 1);
        let slot = match self.free_pods.pop() {
            Some(s) => s,
            None => {
                self.pods.push(None);
                (self.pods.len() - 1) as u32
            }
        };
        node.pods.push(slot);
        self.pod_by_key.insert(info.key.clone(), slot);
        if let Some(s) = self.pods.get_mut(slot as usize) {
            *s = Some(PodEntry {
                info,
                node: node_slot,
                assumed,
            });
        }
        self.sync_hot(node_slot);
        Ok(slot)
    }

    /// Removes the pod `namespace/name` from its node.
    pub fn remove_pod(&mut self, key: &str) -> Result<PodEntry, SchedError> {
        let slot = self
            .pod_by_key
            .remove(key)
            .ok_or_else(|| SchedError::UnknownPod(key.into()))?;
        let Some(entry) = self.pods.get_mut(slot as usize).and_then(Option::take) else {
            return Err(SchedError::UnknownPod(key.into()));
        };
        self.free_pods.push(slot);
        let info = &entry.info;
        if let Some(Some(node)) = self.nodes.get_mut(entry.node as usize) {
            node.res.requested.sub(&info.requests);
            node.res.pod_count -= 1;
            self.generation += 1;
            node.generation = self.generation;
            node.non_zero_cpu -= info.non_zero_cpu;
            node.non_zero_memory -= info.non_zero_memory;
            for p in &info.host_ports {
                if let Some(i) = node.ports.iter().position(|x| x == p) {
                    node.ports.swap_remove(i);
                }
            }
            if let Some(i) = node.pods.iter().position(|&s| s == slot) {
                node.pods.swap_remove(i);
            }
            let ns_labels = self
                .ns_labels
                .get(&info.namespace)
                .unwrap_or(&self.empty_labels);
            self.matchers.on_pod(
                entry.node,
                &node.labels,
                (info.namespace, &info.labels, info.terminating),
                ns_labels,
                -1,
                &self.interner,
            );
            self.terms.on_pod(info, entry.node, &node.labels, -1);
        }
        self.sync_hot(entry.node);
        Ok(entry)
    }

    /// Marks an assumed pod as bound.
    pub fn confirm_pod(&mut self, key: &str) -> Result<(), SchedError> {
        let slot = *self
            .pod_by_key
            .get(key)
            .ok_or_else(|| SchedError::UnknownPod(key.into()))?;
        match self.pods.get_mut(slot as usize) {
            Some(Some(p)) => {
                p.assumed = false;
                Ok(())
            }
            _ => Err(SchedError::UnknownPod(key.into())),
        }
    }

    /// Sets a namespace's labels (for affinity terms' namespaceSelector).
    pub fn set_namespace_labels(&mut self, namespace: &str, labels: &[(String, String)]) {
        let ns = self.interner.intern(namespace);
        let labels = Labels::from_pairs(labels, &mut self.interner);
        self.ns_labels.insert(ns, labels);
        self.matchers.drop_ns_selector_matchers();
    }

    fn zone_key(&self, labels: &Labels) -> ZoneKey {
        let wk = &self.wk;
        let zone = labels
            .get(wk.zone_beta)
            .or_else(|| labels.get(wk.zone))
            .unwrap_or(wk.empty);
        let region = labels
            .get(wk.region_beta)
            .or_else(|| labels.get(wk.region))
            .unwrap_or(wk.empty);
        (zone != wk.empty || region != wk.empty).then_some((region, zone))
    }

    fn add_images(&mut self, spec: &NodeSpec, names: &[Sym]) {
        for &name in names {
            let size = spec
                .images
                .iter()
                .find(|img| img.names.iter().any(|n| self.interner.get(n) == Some(name)))
                .map_or(0, |img| img.size_bytes);
            self.images
                .entry(name)
                .and_modify(|s| s.num_nodes += 1)
                .or_insert(ImageState { size, num_nodes: 1 });
        }
    }

    fn remove_images(&mut self, names: &[Sym]) {
        for name in names {
            if let Some(s) = self.images.get_mut(name) {
                s.num_nodes -= 1;
                if s.num_nodes <= 0 {
                    self.images.remove(name);
                }
            }
        }
    }
}

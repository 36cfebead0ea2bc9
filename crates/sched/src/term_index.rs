//! Existing pods' affinity and anti-affinity terms, grouped by identical term, with the number
//! of pods carrying each term per topology value. InterPodAffinity's PreFilter (existing pods'
//! anti-affinity) and PreScore (existing pods' terms matched by the incoming pod) walk groups,
//! not pods.

use crate::affinity_term::AffinityTerm;
use crate::hash::FxHashMap;
use crate::intern::Sym;
use crate::labels::Labels;
use crate::pod_info::PodInfo;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TermKind {
    RequiredAffinity,
    RequiredAntiAffinity,
    PreferredAffinity(i64),
    PreferredAntiAffinity(i64),
}

#[derive(Debug, Clone)]
pub struct TermGroup {
    pub kind: TermKind,
    pub term: AffinityTerm,
    /// Topology value of the owning pods' nodes → number of pods.
    pub per_value: FxHashMap<Sym, i64>,
    /// Node slot → number of pods (for hostname-like keys, where a node is a domain).
    pub per_slot: Vec<i64>,
    total: i64,
}

#[derive(Debug, Default, Clone)]
pub struct TermIndex {
    groups: Vec<Option<TermGroup>>,
    free: Vec<usize>,
    index: FxHashMap<(TermKind, AffinityTerm), usize>,
    required_anti_groups: usize,
}

impl TermIndex {
    /// Adds (`delta = 1`) or removes (`-1`) the terms of `pod` placed on a node with `labels`.
    pub fn on_pod(&mut self, pod: &PodInfo, slot: u32, node_labels: &Labels, delta: i64) {
        if !pod.has_affinity_terms() {
            return;
        }
        for t in &pod.required_affinity {
            self.update(TermKind::RequiredAffinity, t, slot, node_labels, delta);
        }
        for t in &pod.required_anti_affinity {
            self.update(TermKind::RequiredAntiAffinity, t, slot, node_labels, delta);
        }
        for (w, t) in &pod.preferred_affinity {
            self.update(TermKind::PreferredAffinity(*w), t, slot, node_labels, delta);
        }
        for (w, t) in &pod.preferred_anti_affinity {
            self.update(
                TermKind::PreferredAntiAffinity(*w),
                t,
                slot,
                node_labels,
                delta,
            );
        }
    }

    fn update(
        &mut self,
        kind: TermKind,
        term: &AffinityTerm,
        slot: u32,
        node_labels: &Labels,
        delta: i64,
    ) {
        // A term whose topology key the node lacks never counts (processTerm, updateWithAntiAffinityTerms).
        let Some(value) = node_labels.get(term.topology_key) else {
            return;
        };
        let key = (kind, term.clone());
        let idx = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                if delta < 0 {
                    return;
                }
                let group = TermGroup {
                    kind,
                    term: term.clone(),
                    per_value: FxHashMap::default(),
                    per_slot: Vec::new(),
                    total: 0,
                };
                let i = match self.free.pop() {
                    Some(i) => {
                        if let Some(entry) = self.groups.get_mut(i) {
                            *entry = Some(group);
                        }
                        i
                    }
                    None => {
                        self.groups.push(Some(group));
                        self.groups.len() - 1
                    }
                };
                if kind == TermKind::RequiredAntiAffinity {
                    self.required_anti_groups += 1;
                }
                self.index.insert(key.clone(), i);
                i
            }
        };
        let Some(Some(g)) = self.groups.get_mut(idx) else {
            return;
        };
        let c = g.per_value.entry(value).or_insert(0);
        *c += delta;
        if *c <= 0 {
            g.per_value.remove(&value);
        }
        let s = slot as usize;
        if g.per_slot.len() <= s {
            g.per_slot.resize(s + 1, 0);
        }
        if let Some(c) = g.per_slot.get_mut(s) {
            *c += delta;
        }
        g.total += delta;
        if g.total <= 0 {
            if let Some(slot) = self.groups.get_mut(idx) {
                *slot = None;
            }
            self.free.push(idx);
            self.index.remove(&key);
            if kind == TermKind::RequiredAntiAffinity {
                self.required_anti_groups -= 1;
            }
        }
    }

    pub fn groups(&self) -> impl Iterator<Item = &TermGroup> {
        self.groups.iter().flatten()
    }

    /// Live groups with their stable index (valid until the group empties).
    pub fn groups_indexed(&self) -> impl Iterator<Item = (usize, &TermGroup)> {
        self.groups
            .iter()
            .enumerate()
            .filter_map(|(i, g)| g.as_ref().map(|g| (i, g)))
    }

    pub fn group(&self, idx: usize) -> Option<&TermGroup> {
        self.groups.get(idx).and_then(Option::as_ref)
    }

    /// True when some existing pod has a required anti-affinity term.
    pub fn has_required_anti_affinity(&self) -> bool {
        self.required_anti_groups > 0
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

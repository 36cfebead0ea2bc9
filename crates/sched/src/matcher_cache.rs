//! Per-node counts of existing pods matching a pod matcher (a spread selector, an affinity term,
//! or the AND of a pod's affinity terms), kept up to date as pods come and go. PreFilter and
//! PreScore read a count per node instead of walking every pod of every node.

use crate::affinity_term::AffinityTerm;
use crate::hash::FxHashMap;
use crate::intern::{Interner, Sym};
use crate::labels::Labels;
use crate::selector::Selector;

/// What an index counts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MatcherKey {
    /// `countPodsMatchSelector` (podtopologyspread/common.go): same namespace, not terminating.
    Spread { namespace: Sym, selector: Selector },
    /// `AffinityTerm.Matches` for one term.
    Term(AffinityTerm),
    /// `podMatchesAllAffinityTerms`.
    AllTerms(Vec<AffinityTerm>),
}

impl MatcherKey {
    pub fn matches(
        &self,
        ns: Sym,
        labels: &Labels,
        terminating: bool,
        ns_labels: &Labels,
        interner: &Interner,
    ) -> bool {
        match self {
            MatcherKey::Spread {
                namespace,
                selector,
            } => !terminating && ns == *namespace && selector.matches(labels, interner),
            MatcherKey::Term(t) => t.matches(ns, labels, ns_labels, interner),
            MatcherKey::AllTerms(ts) => {
                !ts.is_empty()
                    && ts
                        .iter()
                        .all(|t| t.matches(ns, labels, ns_labels, interner))
            }
        }
    }

    fn uses_ns_selector(&self) -> bool {
        match self {
            MatcherKey::Spread { .. } => false,
            MatcherKey::Term(t) => t.uses_ns_selector(),
            MatcherKey::AllTerms(ts) => ts.iter().any(AffinityTerm::uses_ns_selector),
        }
    }
}

#[derive(Debug, Clone)]
struct Entry {
    key: MatcherKey,
    per_node: Vec<u32>,
    last_used: u64,
    /// Matching pods per value of a topology key, summed over the nodes carrying that key.
    domains: Vec<(Sym, FxHashMap<Sym, i64>)>,
}

/// Least-recently-used matchers beyond this many are dropped between scheduling cycles.
const MAX_MATCHERS: usize = 256;

#[derive(Debug, Default, Clone)]
pub struct MatcherCache {
    entries: Vec<Entry>,
    index: FxHashMap<MatcherKey, usize>,
    clock: u64,
}

impl MatcherCache {
    pub fn find(&mut self, key: &MatcherKey) -> Option<usize> {
        self.clock += 1;
        let idx = *self.index.get(key)?;
        if let Some(e) = self.entries.get_mut(idx) {
            e.last_used = self.clock;
        }
        Some(idx)
    }

    /// Registers a matcher with its initial per-node counts.
    pub fn insert(&mut self, key: MatcherKey, per_node: Vec<u32>) -> usize {
        self.clock += 1;
        let idx = self.entries.len();
        self.index.insert(key.clone(), idx);
        self.entries.push(Entry {
            domains: Vec::new(),
            key,
            per_node,
            last_used: self.clock,
        });
        idx
    }

    /// Counts per node slot (0 for slots beyond the table).
    #[inline]
    pub fn counts(&self, idx: usize) -> &[u32] {
        self.entries
            .get(idx)
            .map(|e| e.per_node.as_slice())
            .unwrap_or(&[])
    }

    /// A pod on `slot` appeared (`delta = 1`) or left (`delta = -1`).
    pub fn on_pod(
        &mut self,
        slot: u32,
        node_labels: &Labels,
        (ns, labels, terminating): (Sym, &Labels, bool),
        ns_labels: &Labels,
        delta: i32,
        interner: &Interner,
    ) {
        for e in &mut self.entries {
            if e.key.matches(ns, labels, terminating, ns_labels, interner) {
                if e.per_node.len() <= slot as usize {
                    e.per_node.resize(slot as usize + 1, 0);
                }
                if let Some(c) = e.per_node.get_mut(slot as usize) {
                    *c = c.saturating_add_signed(delta);
                }
                for (key, counts) in &mut e.domains {
                    if let Some(v) = node_labels.get(*key) {
                        let c = counts.entry(v).or_insert(0);
                        *c += i64::from(delta);
                        if *c <= 0 {
                            counts.remove(&v);
                        }
                    }
                }
            }
        }
    }

    /// Matching pods per value of `key` for matcher `idx`, if built (see `Cluster::domain_counts`).
    pub fn domains(&self, idx: usize, key: Sym) -> Option<&FxHashMap<Sym, i64>> {
        let e = self.entries.get(idx)?;
        e.domains.iter().find(|(k, _)| *k == key).map(|(_, d)| d)
    }

    /// Registers per-value counts of `key` for matcher `idx` (built by the cluster).
    pub fn set_domains(&mut self, idx: usize, key: Sym, counts: FxHashMap<Sym, i64>) {
        if let Some(e) = self.entries.get_mut(idx) {
            e.domains.retain(|(k, _)| *k != key);
            e.domains.push((key, counts));
        }
    }

    /// Node labels changed somewhere: per-value counts are stale and get rebuilt on demand.
    pub fn clear_domains(&mut self) {
        for e in &mut self.entries {
            e.domains.clear();
        }
    }

    /// A node slot was freed: nothing may be counted there any more.
    pub fn clear_slot(&mut self, slot: u32) {
        for e in &mut self.entries {
            if let Some(c) = e.per_node.get_mut(slot as usize) {
                *c = 0;
            }
        }
    }

    /// Namespace labels changed: matchers with namespace selectors are stale.
    pub fn drop_ns_selector_matchers(&mut self) {
        if self.entries.iter().any(|e| e.key.uses_ns_selector()) {
            self.entries.retain(|e| !e.key.uses_ns_selector());
            self.reindex();
        }
    }

    /// Bounds memory: drop the least recently used matchers. Called between cycles only, so
    /// indices handed out within a cycle stay valid.
    pub fn trim(&mut self) {
        if self.entries.len() <= MAX_MATCHERS {
            return;
        }
        self.entries.sort_by_key(|e| std::cmp::Reverse(e.last_used));
        self.entries.truncate(MAX_MATCHERS / 2);
        self.reindex();
    }

    fn reindex(&mut self) {
        self.index.clear();
        for (i, e) in self.entries.iter().enumerate() {
            self.index.insert(e.key.clone(), i);
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

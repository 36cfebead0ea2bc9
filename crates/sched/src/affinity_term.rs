//! A pod (anti-)affinity term compiled as `framework.AffinityTerm`: the namespaces it covers,
//! its namespace selector, its label selector and its topology key.

use crate::error::SchedError;
use crate::intern::{Interner, Sym};
use crate::labels::Labels;
use crate::pod::PodAffinityTerm;
use crate::selector::{opt_matches, Requirement, Selector};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffinityTerm {
    /// Sorted namespace ids; the owner's namespace when the term names none and has no
    /// namespace selector (`getNamespacesFromPodAffinityTerm`).
    pub namespaces: Vec<Sym>,
    /// `None` selects no namespace.
    pub ns_selector: Option<Selector>,
    /// `None` selects no pod.
    pub selector: Option<Selector>,
    pub topology_key: Sym,
}

impl AffinityTerm {
    /// Compiles `term` of a pod in namespace `owner_ns` with labels `owner_labels`
    /// (matchLabelKeys / mismatchLabelKeys merge the owner's values into the selector, as the
    /// apiserver does at pod creation).
    pub fn compile(
        term: &PodAffinityTerm,
        owner_ns: Sym,
        owner_labels: &Labels,
        interner: &mut Interner,
    ) -> Result<Self, SchedError> {
        if term.topology_key.is_empty() {
            return Err(SchedError::InvalidField(
                "affinity term topologyKey must not be empty".into(),
            ));
        }
        let mut selector = Selector::compile_opt(term.label_selector.as_ref(), interner)?;
        if let Some(sel) = selector.take() {
            let mut sel = sel;
            for key in &term.match_label_keys {
                let k = interner.intern(key);
                if let Some(v) = owner_labels.get(k) {
                    sel = sel.with_requirement(Requirement::In(k, vec![v]));
                }
            }
            for key in &term.mismatch_label_keys {
                let k = interner.intern(key);
                if let Some(v) = owner_labels.get(k) {
                    sel = sel.with_requirement(Requirement::NotIn(k, vec![v]));
                }
            }
            selector = Some(sel);
        }
        let ns_selector = Selector::compile_opt(term.namespace_selector.as_ref(), interner)?;
        let mut namespaces: Vec<Sym> = term.namespaces.iter().map(|n| interner.intern(n)).collect();
        if namespaces.is_empty() && term.namespace_selector.is_none() {
            namespaces.push(owner_ns);
        }
        namespaces.sort_unstable();
        namespaces.dedup();
        Ok(AffinityTerm {
            namespaces,
            ns_selector,
            selector,
            topology_key: interner.intern(&term.topology_key),
        })
    }

    /// `AffinityTerm.Matches`: the pod is in a covered namespace and its labels match.
    #[inline]
    pub fn matches(
        &self,
        ns: Sym,
        labels: &Labels,
        ns_labels: &Labels,
        interner: &Interner,
    ) -> bool {
        let ns_ok = self.namespaces.binary_search(&ns).is_ok()
            || opt_matches(&self.ns_selector, ns_labels, interner);
        ns_ok && opt_matches(&self.selector, labels, interner)
    }

    pub fn uses_ns_selector(&self) -> bool {
        self.ns_selector.is_some()
    }
}

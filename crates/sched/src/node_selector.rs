//! Node selectors (`v1.NodeSelector`): terms ORed, requirements within a term ANDed, operators
//! In, NotIn, Exists, DoesNotExist, Gt, Lt on labels and In/NotIn on the `metadata.name` field.
//! `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`.

use crate::error::SchedError;
use crate::intern::{Interner, Sym};
use crate::labels::Labels;
use crate::selector::Requirement;

/// The only field a node selector may match on (`metav1.ObjectNameField`).
pub const OBJECT_NAME_FIELD: &str = "metadata.name";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeSelectorTerm {
    pub match_expressions: Vec<NodeSelectorRequirement>,
    pub match_fields: Vec<NodeSelectorRequirement>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSelectorRequirement {
    pub key: String,
    pub operator: NodeSelectorOperator,
    pub values: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeSelectorOperator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
}

impl NodeSelectorOperator {
    pub fn parse(s: &str) -> Result<Self, SchedError> {
        Ok(match s {
            "In" => NodeSelectorOperator::In,
            "NotIn" => NodeSelectorOperator::NotIn,
            "Exists" => NodeSelectorOperator::Exists,
            "DoesNotExist" => NodeSelectorOperator::DoesNotExist,
            "Gt" => NodeSelectorOperator::Gt,
            "Lt" => NodeSelectorOperator::Lt,
            other => {
                return Err(SchedError::InvalidSelector(format!(
                    "{other:?} is not a valid node selector operator"
                )))
            }
        })
    }
}

/// `v1.PreferredSchedulingTerm`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreferredSchedulingTerm {
    pub weight: i32,
    pub preference: NodeSelectorTerm,
}

/// A compiled term: label requirements plus `metadata.name` requirements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledTerm {
    exprs: Vec<Requirement>,
    fields: Vec<Requirement>,
    /// `metadata.name In (...)` values of this term, for NodeAffinity's PreFilter narrowing.
    pub(crate) name_in: Option<Vec<Sym>>,
}

impl CompiledTerm {
    pub fn compile(term: &NodeSelectorTerm, interner: &mut Interner) -> Result<Self, SchedError> {
        let mut exprs = Vec::with_capacity(term.match_expressions.len());
        for r in &term.match_expressions {
            exprs.push(compile_requirement(r, interner)?);
        }
        let mut fields = Vec::with_capacity(term.match_fields.len());
        let mut name_in: Option<Vec<Sym>> = None;
        for r in &term.match_fields {
            if r.key != OBJECT_NAME_FIELD {
                return Err(SchedError::InvalidSelector(format!(
                    "not a valid field selector key: {:?}",
                    r.key
                )));
            }
            if !matches!(
                r.operator,
                NodeSelectorOperator::In | NodeSelectorOperator::NotIn
            ) {
                return Err(SchedError::InvalidSelector(format!(
                    "{:?} is not a valid field selector operator",
                    r.operator
                )));
            }
            if r.values.len() != 1 {
                return Err(SchedError::InvalidSelector(
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"
                        .into(),
                ));
            }
            let req = compile_requirement(r, interner)?;
            if let Requirement::In(_, vals) = &req {
                // Requirements in one term are ANDed: intersect.
                name_in = Some(match name_in {
                    None => vals.clone(),
                    Some(prev) => prev.into_iter().filter(|v| vals.contains(v)).collect(),
                });
            }
            fields.push(req);
        }
        Ok(CompiledTerm {
            exprs,
            fields,
            name_in,
        })
    }

    /// A nil or empty term selects no objects.
    #[inline]
    pub fn matches(&self, labels: &Labels, name_fields: &Labels, interner: &Interner) -> bool {
        if self.exprs.is_empty() && self.fields.is_empty() {
            return false;
        }
        self.exprs.iter().all(|r| r.matches(labels, interner))
            && self.fields.iter().all(|r| r.matches(name_fields, interner))
    }
}

fn compile_requirement(
    r: &NodeSelectorRequirement,
    interner: &mut Interner,
) -> Result<Requirement, SchedError> {
    let key = interner.intern(&r.key);
    let mut values: Vec<Sym> = r.values.iter().map(|v| interner.intern(v)).collect();
    values.sort_unstable();
    values.dedup();
    let bad = |msg: &str| SchedError::InvalidSelector(format!("{msg} (key {:?})", r.key));
    Ok(match r.operator {
        NodeSelectorOperator::In | NodeSelectorOperator::NotIn if values.is_empty() => {
            return Err(bad(
                "for 'in', 'notin' operators, values set can't be empty",
            ))
        }
        NodeSelectorOperator::Exists | NodeSelectorOperator::DoesNotExist if !values.is_empty() => {
            return Err(bad(
                "values set must be empty for exists and does not exist",
            ))
        }
        NodeSelectorOperator::In => Requirement::In(key, values),
        NodeSelectorOperator::NotIn => Requirement::NotIn(key, values),
        NodeSelectorOperator::Exists => Requirement::Exists(key),
        NodeSelectorOperator::DoesNotExist => Requirement::DoesNotExist(key),
        NodeSelectorOperator::Gt | NodeSelectorOperator::Lt => {
            let [v] = r.values.as_slice() else {
                return Err(bad(
                    "for 'Gt', 'Lt' operators, exactly one value is required",
                ));
            };
            let n: i64 = v
                .parse()
                .map_err(|_| bad("for 'Gt', 'Lt' operators, the value must be an integer"))?;
            if r.operator == NodeSelectorOperator::Gt {
                Requirement::Gt(key, n)
            } else {
                Requirement::Lt(key, n)
            }
        }
    })
}

/// `nodeaffinity.RequiredNodeAffinity`: the pod's `nodeSelector` AND its required node affinity.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequiredNodeAffinity {
    /// `spec.nodeSelector` as `key In (value)` requirements.
    node_selector: Vec<Requirement>,
    /// `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`, ORed; `None` = absent.
    terms: Option<Vec<CompiledTerm>>,
}

impl RequiredNodeAffinity {
    pub fn compile(
        node_selector: &[(String, String)],
        required: Option<&[NodeSelectorTerm]>,
        interner: &mut Interner,
    ) -> Result<Self, SchedError> {
        let node_selector = node_selector
            .iter()
            .map(|(k, v)| Requirement::In(interner.intern(k), vec![interner.intern(v)]))
            .collect();
        let terms = match required {
            None => None,
            Some(terms) => Some(
                terms
                    .iter()
                    .map(|t| CompiledTerm::compile(t, interner))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(RequiredNodeAffinity {
            node_selector,
            terms,
        })
    }

    /// True when neither a nodeSelector nor required terms are set (NodeAffinity PreFilter skips).
    pub fn is_empty(&self) -> bool {
        self.node_selector.is_empty() && self.terms.is_none()
    }

    pub(crate) fn terms(&self) -> Option<&[CompiledTerm]> {
        self.terms.as_deref()
    }

    /// `RequiredNodeAffinity.Match`.
    #[inline]
    pub fn matches(&self, labels: &Labels, name_fields: &Labels, interner: &Interner) -> bool {
        if !self
            .node_selector
            .iter()
            .all(|r| r.matches(labels, interner))
        {
            return false;
        }
        match &self.terms {
            None => true,
            Some(terms) => terms
                .iter()
                .any(|t| t.matches(labels, name_fields, interner)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(key: &str, op: NodeSelectorOperator, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: op,
            values: values.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn gt_lt_compare_integers_and_bad_values_are_errors() {
        let mut i = Interner::default();
        let labels = Labels::from_pairs(&[("cores".into(), "8".into())], &mut i);
        let none = Labels::default();
        let term = |r| NodeSelectorTerm {
            match_expressions: vec![r],
            match_fields: vec![],
        };
        let gt = CompiledTerm::compile(
            &term(req("cores", NodeSelectorOperator::Gt, &["4"])),
            &mut i,
        )
        .unwrap();
        assert!(gt.matches(&labels, &none, &i));
        let lt = CompiledTerm::compile(
            &term(req("cores", NodeSelectorOperator::Lt, &["4"])),
            &mut i,
        )
        .unwrap();
        assert!(!lt.matches(&labels, &none, &i));
        let err = CompiledTerm::compile(
            &term(req("cores", NodeSelectorOperator::Gt, &["x"])),
            &mut i,
        );
        assert_eq!(err.unwrap_err().code(), "E_INVALID_SELECTOR");
    }

    #[test]
    fn empty_term_matches_nothing_and_fields_match_name() {
        let mut i = Interner::default();
        let labels = Labels::default();
        let empty = CompiledTerm::compile(&NodeSelectorTerm::default(), &mut i).unwrap();
        let name_key = i.intern(OBJECT_NAME_FIELD);
        let n1 = i.intern("node1");
        let fields = Labels::from_pairs(&[(OBJECT_NAME_FIELD.into(), "node1".into())], &mut i);
        assert!(!empty.matches(&labels, &fields, &i));
        let by_name = CompiledTerm::compile(
            &NodeSelectorTerm {
                match_expressions: vec![],
                match_fields: vec![req(OBJECT_NAME_FIELD, NodeSelectorOperator::In, &["node1"])],
            },
            &mut i,
        )
        .unwrap();
        assert!(by_name.matches(&labels, &fields, &i));
        assert_eq!(by_name.name_in, Some(vec![n1]));
        let _ = name_key;
        let bad = NodeSelectorTerm {
            match_expressions: vec![],
            match_fields: vec![req("metadata.uid", NodeSelectorOperator::In, &["x"])],
        };
        assert!(CompiledTerm::compile(&bad, &mut i).is_err());
    }
}

//! Label selectors (`metav1.LabelSelector`): matchLabels plus matchExpressions with In, NotIn,
//! Exists and DoesNotExist, compiled to interned requirements as `labels.Selector` does.
//! A missing selector (`None`) selects nothing; an empty one selects everything
//! (`metav1.LabelSelectorAsSelector`).

use crate::error::SchedError;
use crate::intern::{Interner, Sym};
use crate::labels::Labels;

/// `metav1.LabelSelector`, as the binding fills it from JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelSelector {
    pub match_labels: Vec<(String, String)>,
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelSelectorRequirement {
    pub key: String,
    pub operator: SelectorOperator,
    pub values: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SelectorOperator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
}

impl SelectorOperator {
    /// Parses the API spelling (`"In"`, `"NotIn"`, `"Exists"`, `"DoesNotExist"`).
    pub fn parse(s: &str) -> Result<Self, SchedError> {
        Ok(match s {
            "In" => SelectorOperator::In,
            "NotIn" => SelectorOperator::NotIn,
            "Exists" => SelectorOperator::Exists,
            "DoesNotExist" => SelectorOperator::DoesNotExist,
            other => {
                return Err(SchedError::InvalidSelector(format!(
                    "{other:?} is not a valid label selector operator"
                )))
            }
        })
    }
}

/// One compiled requirement. `Gt`/`Lt` only come from node selectors.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Requirement {
    In(Sym, Vec<Sym>),
    NotIn(Sym, Vec<Sym>),
    Exists(Sym),
    DoesNotExist(Sym),
    Gt(Sym, i64),
    Lt(Sym, i64),
}

impl Requirement {
    fn key(&self) -> Sym {
        match self {
            Requirement::In(k, _)
            | Requirement::NotIn(k, _)
            | Requirement::Exists(k)
            | Requirement::DoesNotExist(k)
            | Requirement::Gt(k, _)
            | Requirement::Lt(k, _) => *k,
        }
    }

    /// `labels.Requirement.Matches`.
    #[inline]
    pub fn matches(&self, labels: &Labels, interner: &Interner) -> bool {
        match self {
            Requirement::In(k, vals) => labels.get(*k).is_some_and(|v| vals.contains(&v)),
            Requirement::NotIn(k, vals) => labels.get(*k).is_none_or(|v| !vals.contains(&v)),
            Requirement::Exists(k) => labels.has(*k),
            Requirement::DoesNotExist(k) => !labels.has(*k),
            Requirement::Gt(k, n) => label_int(labels, *k, interner).is_some_and(|v| v > *n),
            Requirement::Lt(k, n) => label_int(labels, *k, interner).is_some_and(|v| v < *n),
        }
    }
}

fn label_int(labels: &Labels, key: Sym, interner: &Interner) -> Option<i64> {
    labels
        .get(key)
        .and_then(|v| interner.resolve(v).parse::<i64>().ok())
}

/// A compiled selector: the AND of its requirements, sorted by key for a canonical form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Selector {
    reqs: Vec<Requirement>,
}

impl Selector {
    /// `metav1.LabelSelectorAsSelector` for a present selector.
    pub fn compile(sel: &LabelSelector, interner: &mut Interner) -> Result<Selector, SchedError> {
        let mut reqs = Vec::with_capacity(sel.match_labels.len() + sel.match_expressions.len());
        for (k, v) in &sel.match_labels {
            reqs.push(Requirement::In(
                interner.intern(k),
                vec![interner.intern(v)],
            ));
        }
        for e in &sel.match_expressions {
            if e.key.is_empty() {
                return Err(SchedError::InvalidSelector(
                    "label selector key must not be empty".into(),
                ));
            }
            let key = interner.intern(&e.key);
            let mut values: Vec<Sym> = e.values.iter().map(|v| interner.intern(v)).collect();
            values.sort_unstable();
            values.dedup();
            let req = match e.operator {
                SelectorOperator::In | SelectorOperator::NotIn if values.is_empty() => {
                    return Err(SchedError::InvalidSelector(format!(
                        "for 'in', 'notin' operators, values set can't be empty (key {:?})",
                        e.key
                    )))
                }
                SelectorOperator::Exists | SelectorOperator::DoesNotExist if !values.is_empty() => {
                    return Err(SchedError::InvalidSelector(format!(
                        "values set must be empty for exists and does not exist (key {:?})",
                        e.key
                    )))
                }
                SelectorOperator::In => Requirement::In(key, values),
                SelectorOperator::NotIn => Requirement::NotIn(key, values),
                SelectorOperator::Exists => Requirement::Exists(key),
                SelectorOperator::DoesNotExist => Requirement::DoesNotExist(key),
            };
            reqs.push(req);
        }
        Ok(Selector::from_requirements(reqs))
    }

    /// Compiles an optional selector: `None` selects nothing.
    pub fn compile_opt(
        sel: Option<&LabelSelector>,
        interner: &mut Interner,
    ) -> Result<Option<Selector>, SchedError> {
        sel.map(|s| Selector::compile(s, interner)).transpose()
    }

    pub fn from_requirements(mut reqs: Vec<Requirement>) -> Selector {
        reqs.sort_by_key(Requirement::key);
        Selector { reqs }
    }

    /// Adds `key In (value)` (how matchLabelKeys merge into a selector).
    pub fn with_requirement(mut self, req: Requirement) -> Selector {
        self.reqs.push(req);
        self.reqs.sort_by_key(Requirement::key);
        self
    }

    /// Selects everything.
    pub fn everything() -> Selector {
        Selector::default()
    }

    pub fn is_empty(&self) -> bool {
        self.reqs.is_empty()
    }

    #[inline]
    pub fn matches(&self, labels: &Labels, interner: &Interner) -> bool {
        self.reqs.iter().all(|r| r.matches(labels, interner))
    }
}

/// Matches an optional selector: `None` (nil) selects nothing.
#[inline]
pub fn opt_matches(sel: &Option<Selector>, labels: &Labels, interner: &Interner) -> bool {
    sel.as_ref().is_some_and(|s| s.matches(labels, interner))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(i: &mut Interner, pairs: &[(&str, &str)]) -> Labels {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Labels::from_pairs(&pairs, i)
    }

    fn expr(key: &str, op: SelectorOperator, values: &[&str]) -> LabelSelectorRequirement {
        LabelSelectorRequirement {
            key: key.into(),
            operator: op,
            values: values.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn operators() {
        let mut i = Interner::default();
        let l = labels(&mut i, &[("app", "web"), ("tier", "front")]);
        let cases = [
            (expr("app", SelectorOperator::In, &["web", "db"]), true),
            (expr("app", SelectorOperator::In, &["db"]), false),
            (expr("app", SelectorOperator::NotIn, &["db"]), true),
            (expr("missing", SelectorOperator::NotIn, &["db"]), true),
            (expr("app", SelectorOperator::NotIn, &["web"]), false),
            (expr("tier", SelectorOperator::Exists, &[]), true),
            (expr("missing", SelectorOperator::Exists, &[]), false),
            (expr("missing", SelectorOperator::DoesNotExist, &[]), true),
            (expr("app", SelectorOperator::DoesNotExist, &[]), false),
        ];
        for (e, want) in cases {
            let sel = LabelSelector {
                match_labels: vec![],
                match_expressions: vec![e.clone()],
            };
            let s = Selector::compile(&sel, &mut i).unwrap();
            assert_eq!(s.matches(&l, &i), want, "{e:?}");
        }
    }

    #[test]
    fn empty_selects_all_and_none_selects_nothing() {
        let mut i = Interner::default();
        let l = labels(&mut i, &[("a", "b")]);
        let empty = Selector::compile_opt(Some(&LabelSelector::default()), &mut i).unwrap();
        assert!(opt_matches(&empty, &l, &i));
        assert!(!opt_matches(&None, &l, &i));
    }

    #[test]
    fn invalid_selectors_are_typed_errors() {
        let mut i = Interner::default();
        for e in [
            expr("a", SelectorOperator::In, &[]),
            expr("a", SelectorOperator::Exists, &["x"]),
            expr("", SelectorOperator::Exists, &[]),
        ] {
            let sel = LabelSelector {
                match_labels: vec![],
                match_expressions: vec![e],
            };
            assert_eq!(
                Selector::compile(&sel, &mut i).unwrap_err().code(),
                "E_INVALID_SELECTOR"
            );
        }
        assert_eq!(
            SelectorOperator::parse("Gt").unwrap_err().code(),
            "E_INVALID_SELECTOR"
        );
        assert_eq!(
            SelectorOperator::parse("NotIn").unwrap(),
            SelectorOperator::NotIn
        );
    }
}

//! Taints and tolerations (`v1.Taint`, `v1.Toleration`, `Toleration.ToleratesTaint`).

use crate::error::SchedError;
use crate::intern::{Interner, Sym};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaintEffect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute,
}

impl TaintEffect {
    pub fn parse(s: &str) -> Result<Self, SchedError> {
        Ok(match s {
            "NoSchedule" => TaintEffect::NoSchedule,
            "PreferNoSchedule" => TaintEffect::PreferNoSchedule,
            "NoExecute" => TaintEffect::NoExecute,
            other => {
                return Err(SchedError::InvalidField(format!(
                    "unknown taint effect {other:?}"
                )))
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taint {
    pub key: String,
    pub value: String,
    pub effect: TaintEffect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TolerationOperator {
    /// Also the meaning of an empty operator.
    Equal,
    Exists,
}

impl TolerationOperator {
    /// `""` means Equal, as in the API.
    pub fn parse(s: &str) -> Result<Self, SchedError> {
        Ok(match s {
            "" | "Equal" => TolerationOperator::Equal,
            "Exists" => TolerationOperator::Exists,
            other => {
                return Err(SchedError::InvalidField(format!(
                    "unknown toleration operator {other:?}"
                )))
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toleration {
    /// Empty matches every key (with operator Exists).
    pub key: String,
    pub operator: TolerationOperator,
    pub value: String,
    /// `None` matches every effect.
    pub effect: Option<TaintEffect>,
}

/// An interned taint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaintId {
    pub key: Sym,
    pub value: Sym,
    pub effect: TaintEffect,
}

impl TaintId {
    pub fn new(t: &Taint, interner: &mut Interner) -> Self {
        TaintId {
            key: interner.intern(&t.key),
            value: interner.intern(&t.value),
            effect: t.effect,
        }
    }
}

/// An interned toleration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TolerationId {
    pub key: Option<Sym>,
    pub operator: TolerationOperator,
    pub value: Sym,
    pub effect: Option<TaintEffect>,
}

impl TolerationId {
    pub fn new(t: &Toleration, interner: &mut Interner) -> Self {
        TolerationId {
            key: (!t.key.is_empty()).then(|| interner.intern(&t.key)),
            operator: t.operator,
            value: interner.intern(&t.value),
            effect: t.effect,
        }
    }

    /// `Toleration.ToleratesTaint`.
    #[inline]
    pub fn tolerates(&self, taint: &TaintId) -> bool {
        if self.effect.is_some_and(|e| e != taint.effect) {
            return false;
        }
        if self.key.is_some_and(|k| k != taint.key) {
            return false;
        }
        match self.operator {
            TolerationOperator::Equal => self.value == taint.value,
            TolerationOperator::Exists => true,
        }
    }
}

/// `v1helper.TolerationsTolerateTaint`.
#[inline]
pub fn tolerations_tolerate(tolerations: &[TolerationId], taint: &TaintId) -> bool {
    tolerations.iter().any(|t| t.tolerates(taint))
}

/// `v1helper.FindMatchingUntoleratedTaint` with `DoNotScheduleTaintsFilterFunc`
/// (NoSchedule and NoExecute): the first such taint, in node order, that no toleration tolerates.
#[inline]
pub fn first_untolerated_do_not_schedule(
    taints: &[TaintId],
    tolerations: &[TolerationId],
) -> Option<TaintId> {
    taints
        .iter()
        .filter(|t| matches!(t.effect, TaintEffect::NoSchedule | TaintEffect::NoExecute))
        .find(|t| !tolerations_tolerate(tolerations, t))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toleration_matching_rules() {
        let mut i = Interner::default();
        let taint = TaintId::new(
            &Taint {
                key: "dedicated".into(),
                value: "gpu".into(),
                effect: TaintEffect::NoSchedule,
            },
            &mut i,
        );
        let mut tol = |key: &str, op, value: &str, effect| {
            TolerationId::new(
                &Toleration {
                    key: key.into(),
                    operator: op,
                    value: value.into(),
                    effect,
                },
                &mut i,
            )
        };
        use TolerationOperator::*;
        assert!(tol("dedicated", Equal, "gpu", None).tolerates(&taint));
        assert!(!tol("dedicated", Equal, "cpu", None).tolerates(&taint));
        assert!(tol("dedicated", Exists, "", Some(TaintEffect::NoSchedule)).tolerates(&taint));
        assert!(!tol("dedicated", Exists, "", Some(TaintEffect::NoExecute)).tolerates(&taint));
        assert!(tol("", Exists, "", None).tolerates(&taint));
        assert!(!tol("other", Exists, "", None).tolerates(&taint));
        assert_eq!(TolerationOperator::parse("").unwrap(), Equal);
        assert!(TolerationOperator::parse("Gt").is_err());
        assert!(TaintEffect::parse("Bogus").is_err());
    }
}

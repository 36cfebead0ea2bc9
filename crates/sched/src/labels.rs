//! A label set as sorted `(key, value)` id pairs: lookups are a binary search over integers.

use crate::intern::{Interner, Sym};

#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Labels(Vec<(Sym, Sym)>);

impl Labels {
    /// Interns `pairs`; on a repeated key the last value wins, as in a Go map literal.
    pub fn from_pairs(pairs: &[(String, String)], interner: &mut Interner) -> Labels {
        let mut v: Vec<(Sym, Sym)> = Vec::with_capacity(pairs.len());
        for (k, val) in pairs {
            let (k, val) = (interner.intern(k), interner.intern(val));
            match v.iter_mut().find(|(existing, _)| *existing == k) {
                Some(slot) => slot.1 = val,
                None => v.push((k, val)),
            }
        }
        v.sort_unstable();
        Labels(v)
    }

    #[inline]
    pub fn get(&self, key: Sym) -> Option<Sym> {
        self.0
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .and_then(|i| self.0.get(i))
            .map(|&(_, v)| v)
    }

    #[inline]
    pub fn has(&self, key: Sym) -> bool {
        self.get(key).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (Sym, Sym)> + '_ {
        self.0.iter().copied()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_and_last_value_wins() {
        let mut i = Interner::default();
        let l = Labels::from_pairs(
            &[
                ("b".into(), "1".into()),
                ("a".into(), "2".into()),
                ("b".into(), "3".into()),
            ],
            &mut i,
        );
        assert_eq!(l.len(), 2);
        assert_eq!(l.get(i.intern("b")), Some(i.intern("3")));
        assert_eq!(l.get(i.intern("zzz")), None);
    }
}

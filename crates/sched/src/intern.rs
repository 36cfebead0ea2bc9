//! String interning: label keys and values, namespaces, node names, images and resource names
//! become small integer ids, so the hot loops compare integers, never strings.

use crate::hash::FxHashMap;
use std::sync::Arc;

/// An interned string.
pub type Sym = u32;

/// Append-only string table. Ids are dense, so they can index side tables.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    map: FxHashMap<Arc<str>, Sym>,
    strs: Vec<Arc<str>>,
}

impl Interner {
    /// The id of `s`, minting one if needed.
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.map.get(s) {
            return sym;
        }
        let sym = self.strs.len() as Sym;
        let rc: Arc<str> = Arc::from(s);
        self.strs.push(rc.clone());
        self.map.insert(rc, sym);
        sym
    }

    /// The id of `s` if it was ever interned.
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.map.get(s).copied()
    }

    /// The string of `sym` ("" for an id this table never minted).
    pub fn resolve(&self, sym: Sym) -> &str {
        self.strs.get(sym as usize).map(|s| &**s).unwrap_or("")
    }

    /// Number of ids minted so far; every id is below it.
    pub fn len(&self) -> usize {
        self.strs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_string_same_id() {
        let mut i = Interner::default();
        let a = i.intern("zone");
        assert_eq!(i.intern("zone"), a);
        assert_ne!(i.intern("region"), a);
        assert_eq!(i.resolve(a), "zone");
        assert_eq!(i.resolve(999), "");
        assert_eq!(i.get("nope"), None);
    }
}

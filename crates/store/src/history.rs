//! The change log: every retained change in revision order, 24 bytes each, in fixed-size chunks
//! (no doubling slack, no copy of old entries on growth). A key's versions are positions in
//! this log, and watches replay history by scanning it from a revision.

use crate::chunked::Chunked;

/// Changes per chunk.
const CHUNK: usize = 4096;

/// Flag bits in [`Change::sub_flags`]; the low 30 bits are the sub revision.
pub(crate) const TOMBSTONE: u32 = 1 << 31;
pub(crate) const LEASED: u32 = 1 << 30;
pub(crate) const SUB_MASK: u32 = LEASED - 1;

/// One put or delete of one key at `(main, sub)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Change {
    pub main: i64,
    /// The key's slot in `Store::slots`.
    pub slot: u32,
    pub sub_flags: u32,
    /// Arena handle of `[lease][value]` (unused for tombstones).
    pub handle: u32,
    /// Value length (without the lease prefix).
    pub len: u32,
}

impl Change {
    pub fn sub(&self) -> i64 {
        i64::from(self.sub_flags & SUB_MASK)
    }
    pub fn is_tombstone(&self) -> bool {
        self.sub_flags & TOMBSTONE != 0
    }
    pub fn is_leased(&self) -> bool {
        self.sub_flags & LEASED != 0
    }
    /// Arena bytes the entry occupies.
    pub fn arena_bytes(&self) -> usize {
        if self.is_tombstone() {
            0
        } else {
            self.len as usize + if self.is_leased() { 8 } else { 0 }
        }
    }
}

#[derive(Debug, Default, Clone)]
pub(crate) struct History {
    changes: Chunked<Change, CHUNK>,
}

impl History {
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    pub fn push(&mut self, change: Change) -> u32 {
        self.changes.push(change) as u32
    }

    pub fn get(&self, position: u32) -> Option<&Change> {
        self.changes.get(position as usize)
    }

    pub fn main_at(&self, position: u32) -> i64 {
        self.get(position).map_or(i64::MAX, |c| c.main)
    }

    /// The first position whose `main` is ≥ `revision` (binary search; mains are ascending).
    pub fn first_at_or_after(&self, revision: i64) -> u32 {
        let (mut lo, mut hi) = (0usize, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.main_at(mid as u32) < revision {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo as u32
    }

    pub fn iter(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter()
    }

    pub fn allocated_bytes(&self) -> usize {
        self.changes.allocated_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(main: i64) -> Change {
        Change {
            main,
            slot: 0,
            sub_flags: 0,
            handle: 0,
            len: 0,
        }
    }

    #[test]
    fn positions_span_chunks_and_search_by_revision() {
        assert_eq!(std::mem::size_of::<Change>(), 24);
        let mut history = History::default();
        for i in 0..(CHUNK * 2 + 10) {
            assert_eq!(history.push(change(2 + (i / 3) as i64)) as usize, i);
        }
        assert_eq!(
            history.get(CHUNK as u32).map(|c| c.main),
            Some(2 + (CHUNK / 3) as i64)
        );
        assert_eq!(history.first_at_or_after(3), 3);
        assert_eq!(history.first_at_or_after(0), 0);
        assert_eq!(history.first_at_or_after(i64::MAX) as usize, history.len());
        assert!(history.get(u32::MAX).is_none());
        assert_eq!(history.iter().count(), CHUNK * 2 + 10);
    }
}

//! One key's versions: etcd's `keyIndex` (`server/storage/mvcc/key_index.go`) without storing
//! `create_revision` or `version` per version. Both are derived: a generation (a key's life from
//! a put after a delete to the next delete) starts after each tombstone, its first put is its
//! `create_revision`, and a put's version is its index in the generation plus one. Only the
//! first retained generation, which compaction may have cut, needs its numbers stored.

use std::rc::Rc;

use crate::chunked::Chunked;
use crate::history::History;

/// Every key's slot, indexed by slot id.
pub(crate) type Slots = Chunked<KeySlot, 1024>;

#[derive(Debug, Clone)]
pub(crate) struct KeySlot {
    pub key: Rc<[u8]>,
    /// Positions in the change log, ascending.
    pub revs: Vec<u32>,
    /// `create_revision` of the put at `revs[0]` (when it is a put).
    pub first_created: i64,
    /// `version` of the put at `revs[0]` (when it is a put).
    pub first_version: i64,
    /// Indices into `revs` where a generation starts after a tombstone, ascending; boxed
    /// because most keys have none (8 bytes instead of 24).
    #[allow(clippy::box_collection)] // the point is the 8-byte empty case
    pub gens: Option<Box<Vec<u32>>>,
}

/// What a put needs to know about the key's current life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Meta {
    pub create_revision: i64,
    pub version: i64,
}

impl KeySlot {
    pub fn new(key: Rc<[u8]>) -> Self {
        KeySlot {
            key,
            revs: Vec::new(),
            first_created: 0,
            first_version: 0,
            gens: None,
        }
    }

    /// `create_revision` and `version` of the put at `revs[index]`.
    pub fn meta(&self, index: usize, history: &History) -> Meta {
        let gens = self.gens();
        let g = gens.partition_point(|&start| start as usize <= index);
        match g.checked_sub(1).and_then(|g| gens.get(g)) {
            Some(&start) => Meta {
                create_revision: self
                    .revs
                    .get(start as usize)
                    .map_or(0, |&p| history.main_at(p)),
                version: (index.saturating_sub(start as usize) as i64).saturating_add(1),
            },
            None => Meta {
                create_revision: self.first_created,
                version: self.first_version.saturating_add(index as i64),
            },
        }
    }

    pub fn gens(&self) -> &[u32] {
        self.gens.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The index of the newest version at or before `revision`.
    pub fn index_at(&self, revision: i64, history: &History) -> Option<usize> {
        // Fast path: the latest version answers reads at the current revision.
        let last = *self.revs.last()?;
        if history.main_at(last) <= revision {
            return Some(self.revs.len() - 1);
        }
        self.revs
            .partition_point(|&p| history.main_at(p) <= revision)
            .checked_sub(1)
    }

    /// True if the key has a live (non-deleted) version as of the latest change.
    pub fn is_live(&self, history: &History) -> bool {
        self.revs
            .last()
            .and_then(|&p| history.get(p))
            .is_some_and(|c| !c.is_tombstone())
    }

    /// Records that a put at log `position` follows; returns its create revision and version.
    pub fn push_put(&mut self, position: u32, main: i64, history: &History) -> Meta {
        let meta = match self.revs.last().and_then(|&p| history.get(p)) {
            Some(c) if !c.is_tombstone() => {
                let m = self.meta(self.revs.len() - 1, history);
                Meta {
                    create_revision: m.create_revision,
                    version: m.version.saturating_add(1),
                }
            }
            Some(_) => {
                let start = self.revs.len() as u32;
                self.gens.get_or_insert_with(Box::default).push(start);
                Meta {
                    create_revision: main,
                    version: 1,
                }
            }
            None => {
                self.first_created = main;
                self.first_version = 1;
                Meta {
                    create_revision: main,
                    version: 1,
                }
            }
        };
        self.revs.push(position);
        meta
    }

    /// Drops the first `drop` versions (compaction), keeping the numbers of the rest.
    pub fn drop_front(&mut self, drop: usize, history: &History) {
        if drop == 0 {
            return;
        }
        if drop < self.revs.len() {
            let m = self.meta(drop, history);
            self.first_created = m.create_revision;
            self.first_version = m.version;
        }
        self.revs.drain(..drop.min(self.revs.len()));
        let drop = drop as u32;
        let gens: Vec<u32> = self
            .gens()
            .iter()
            .filter(|&&s| s > drop)
            .map(|&s| s - drop)
            .collect();
        self.gens = (!gens.is_empty()).then(|| Box::new(gens));
    }

    pub fn allocated_bytes(&self) -> usize {
        self.revs.capacity() * 4 + self.gens.as_ref().map_or(0, |g| 24 + g.capacity() * 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::{Change, TOMBSTONE};

    fn log(history: &mut History, slot: &mut KeySlot, main: i64, tombstone: bool) -> Meta {
        let sub_flags = if tombstone { TOMBSTONE } else { 0 };
        let p = history.push(Change {
            main,
            slot: 0,
            sub_flags,
            handle: 0,
            len: 0,
        });
        if tombstone {
            slot.revs.push(p);
            Meta {
                create_revision: 0,
                version: 0,
            }
        } else {
            slot.push_put(p, main, history)
        }
    }

    #[test]
    fn generations_give_create_revision_and_version() {
        let mut history = History::default();
        let mut slot = KeySlot::new(Rc::from(&b"k"[..]));
        assert_eq!(
            log(&mut history, &mut slot, 2, false),
            Meta {
                create_revision: 2,
                version: 1
            }
        );
        assert_eq!(
            log(&mut history, &mut slot, 3, false),
            Meta {
                create_revision: 2,
                version: 2
            }
        );
        log(&mut history, &mut slot, 4, true);
        assert!(!slot.is_live(&history));
        assert_eq!(
            log(&mut history, &mut slot, 6, false),
            Meta {
                create_revision: 6,
                version: 1
            }
        );
        assert_eq!(
            log(&mut history, &mut slot, 7, false),
            Meta {
                create_revision: 6,
                version: 2
            }
        );
        assert_eq!(
            slot.meta(1, &history),
            Meta {
                create_revision: 2,
                version: 2
            }
        );
        assert_eq!(slot.index_at(5, &history), Some(2));
        assert_eq!(slot.index_at(1, &history), None);

        // Compaction keeps the numbers of what remains.
        slot.drop_front(1, &history);
        assert_eq!(
            slot.meta(0, &history),
            Meta {
                create_revision: 2,
                version: 2
            }
        );
        assert_eq!(
            slot.meta(3, &history),
            Meta {
                create_revision: 6,
                version: 2
            }
        );
        slot.drop_front(2, &history);
        assert_eq!(
            slot.meta(1, &history),
            Meta {
                create_revision: 6,
                version: 2
            }
        );
        assert!(slot.gens.is_none());
    }
}

//! Compaction (`E server/storage/mvcc/kvstore.go` updateCompactRev, `E key_index.go` compact):
//! for each key keep the newest version at or before the compaction revision and everything
//! after; drop a key whose newest such version is a tombstone. The exceptions are changes
//! exactly at the compaction revision: all of them are kept (a tombstone too, invisible to
//! reads; a put that a later op of the same txn overwrote or deleted too), so that a watch
//! opened at the compaction revision still sees that whole revision (etcd issue #19179). Runs synchronously: the
//! store is single-threaded, so etcd's batching (`defaultCompactionBatchLimit`) buys nothing.

use crate::arena::Arena;
use crate::history::{Change, History};
use crate::{Store, StoreError};

impl Store {
    /// Discards history before `revision`. Compacting at or below the last compaction is
    /// `E_COMPACTED`; beyond the current revision, `E_FUTURE_REV`.
    pub fn compact(&mut self, revision: i64) -> Result<(), StoreError> {
        if revision <= self.compact_revision {
            return Err(StoreError::Compacted {
                compact_revision: self.compact_revision,
            });
        }
        if revision > self.current_revision {
            return Err(StoreError::FutureRevision {
                current_revision: self.current_revision,
            });
        }
        self.compact_revision = revision;
        self.wal.compact(revision);
        self.compact_history(revision);
        Ok(())
    }

    /// Drops what `revision` no longer needs, remaps log positions and, when most of the value
    /// arena is garbage, rebuilds it.
    pub(crate) fn compact_history(&mut self, revision: i64) {
        let len = self.history.len();
        let mut keep = vec![true; len];
        let mut dropped_any = false;
        let mut emptied = Vec::new();
        for (slot_id, slot) in self.slots.iter_mut().enumerate() {
            if slot.revs.is_empty() {
                continue;
            }
            let Some(newest) = slot.index_at(revision, &self.history) else {
                continue;
            };
            let Some(change) = slot.revs.get(newest).and_then(|&p| self.history.get(p)) else {
                continue;
            };
            let drop = if change.main == revision {
                // Every change of the compaction revision stays, not only the key's last one in
                // it: a watch opened at that revision must see the whole revision.
                slot.revs
                    .partition_point(|&p| self.history.main_at(p) < revision)
                    .min(newest)
            } else if change.is_tombstone() {
                newest + 1
            } else {
                newest
            };
            if drop == 0 {
                continue;
            }
            dropped_any = true;
            for &p in slot.revs.iter().take(drop) {
                if let Some(k) = keep.get_mut(p as usize) {
                    *k = false;
                }
                if let Some(c) = self.history.get(p) {
                    self.arena.release(c.arena_bytes());
                }
            }
            slot.drop_front(drop, &self.history);
            if slot.revs.is_empty() {
                emptied.push(slot_id as u32);
            }
        }
        if !dropped_any {
            return;
        }
        // New positions: the rank of each kept change.
        let mut remap = vec![0u32; len];
        let mut history = History::default();
        for (position, kept) in keep.iter().enumerate() {
            if !*kept {
                continue;
            }
            if let Some(&change) = self.history.get(position as u32) {
                if let Some(r) = remap.get_mut(position) {
                    *r = history.push(change);
                }
            }
        }
        for slot in self.slots.iter_mut() {
            for p in &mut slot.revs {
                *p = remap.get(*p as usize).copied().unwrap_or(0);
            }
            slot.revs.shrink_to(slot.revs.len().max(4));
        }
        self.history = history;
        for slot in emptied {
            self.free_slot(slot);
        }
        if self.arena.used() > 2 * self.arena.live() + crate::arena::CHUNK_SIZE {
            self.rebuild_arena();
        }
    }

    /// Copies live values into a fresh arena (only entries still referenced by the log).
    fn rebuild_arena(&mut self) {
        let mut arena = Arena::default();
        let mut history = History::default();
        for change in self.history.iter() {
            let mut moved: Change = *change;
            if !change.is_tombstone() {
                let view = self.view();
                let lease = change.is_leased().then(|| view.lease_of(change));
                if let Ok(handle) = arena.push(lease, view.value_of(change)) {
                    moved.handle = handle;
                }
            }
            history.push(moved);
        }
        self.arena = arena;
        self.history = history;
    }
}

#[cfg(test)]
mod tests {
    use crate::{DeleteRangeRequest, RangeRequest, Store, StoreError};

    fn read(
        store: &Store,
        key: &str,
        revision: i64,
    ) -> Result<Vec<(Vec<u8>, i64, i64)>, StoreError> {
        let request = RangeRequest {
            key: key.into(),
            revision,
            ..RangeRequest::default()
        };
        Ok(store
            .range(&request)?
            .kvs
            .into_iter()
            .map(|kv| (kv.value, kv.create_revision, kv.version))
            .collect())
    }

    #[test]
    fn keeps_the_newest_version_at_or_before_the_revision() {
        let mut store = Store::new();
        for v in ["1", "2", "3"] {
            store.put(b"/a", v.as_bytes()).unwrap(); // 2, 3, 4
        }
        store.put(b"/gone", b"x").unwrap(); // 5
        store
            .delete_range(&DeleteRangeRequest {
                key: b"/gone".to_vec(),
                ..Default::default()
            })
            .unwrap(); // 6
        store.put(b"/a", b"4").unwrap(); // 7
        store.compact(6).unwrap();
        assert_eq!(read(&store, "/a", 6), Ok(vec![(b"3".to_vec(), 2, 3)]));
        assert_eq!(read(&store, "/a", 0), Ok(vec![(b"4".to_vec(), 2, 4)]));
        assert_eq!(read(&store, "/a", 5).unwrap_err().code(), "E_COMPACTED");
        assert_eq!(read(&store, "/gone", 6), Ok(vec![]));
        assert_eq!(
            store.version_count(),
            3,
            "/a at 4 and 7, and the tombstone at 6"
        );
        store.compact(7).unwrap();
        assert_eq!(
            store.key_count(),
            1,
            "the tombstone before the compaction point is dropped"
        );
        assert_eq!(read(&store, "/a", 0), Ok(vec![(b"4".to_vec(), 2, 4)]));
    }

    #[test]
    fn past_and_future_compactions_are_refused() {
        let mut store = Store::new();
        store.put(b"/a", b"1").unwrap();
        store.put(b"/a", b"2").unwrap();
        assert_eq!(
            store.compact(4),
            Err(StoreError::FutureRevision {
                current_revision: 3
            })
        );
        store.compact(2).unwrap();
        assert_eq!(
            store.compact(2).unwrap_err().to_string(),
            "mvcc: required revision has been compacted"
        );
        assert_eq!(store.compact(1).unwrap_err().code(), "E_COMPACTED");
        assert_eq!(store.compact_revision(), 2);
        assert_eq!(read(&store, "/a", 2), Ok(vec![(b"1".to_vec(), 2, 1)]));
    }

    #[test]
    fn rebuilding_the_arena_keeps_values() {
        let mut store = Store::new();
        let big = vec![7u8; 1 << 20];
        for _ in 0..12 {
            store.put(b"/big", &big).unwrap();
        }
        store.put(b"/small", b"s").unwrap();
        let before = store.value_bytes();
        store.compact(store.current_revision()).unwrap();
        assert!(store.value_bytes() < before);
        assert_eq!(read(&store, "/big", 0).unwrap()[0].0, big);
        assert_eq!(read(&store, "/big", 0).unwrap()[0].2, 12);
        assert_eq!(read(&store, "/small", 0).unwrap()[0].0, b"s");
    }

    #[test]
    fn a_watch_at_the_compaction_revision_sees_all_of_it() {
        use crate::{PutRequest, RequestOp, TxnRequest, WatchRequest};
        let mut store = Store::new();
        store.put(b"/a", b"0").unwrap();
        // One revision (3) that creates /b and deletes it again.
        let txn = TxnRequest {
            success: vec![
                RequestOp::Txn(TxnRequest {
                    success: vec![RequestOp::Put(PutRequest {
                        key: b"/b".to_vec(),
                        value: b"1".to_vec(),
                        ..PutRequest::default()
                    })],
                    ..TxnRequest::default()
                }),
                RequestOp::Txn(TxnRequest {
                    success: vec![RequestOp::DeleteRange(DeleteRangeRequest {
                        key: b"/b".to_vec(),
                        ..DeleteRangeRequest::default()
                    })],
                    ..TxnRequest::default()
                }),
            ],
            ..TxnRequest::default()
        };
        assert_eq!(store.txn(&txn).unwrap().revision, 3);
        store.put(b"/a", b"1").unwrap();
        store.compact(3).unwrap();
        assert_eq!(read(&store, "/b", 3), Ok(vec![]));
        store
            .watch(WatchRequest {
                key: b"/".to_vec(),
                range_end: b"0".to_vec(),
                start_revision: 3,
                ..WatchRequest::default()
            })
            .unwrap();
        let seen: Vec<_> = store
            .poll_watch_events(0)
            .into_iter()
            .flat_map(|r| r.events)
            .map(|e| (e.kind, e.kv.key, e.kv.mod_revision))
            .collect();
        use crate::EventType::{Delete, Put};
        assert_eq!(
            seen,
            [
                (Put, b"/b".to_vec(), 3),
                (Delete, b"/b".to_vec(), 3),
                (Put, b"/a".to_vec(), 4)
            ]
        );
    }
}

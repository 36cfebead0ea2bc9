//! Read access to the stored versions, borrowed field by field so that watch delivery can read
//! history while it mutates the watchers.

use crate::arena::Arena;
use crate::history::{Change, History};
use crate::key_index::{KeySlot, Slots};
use crate::{Event, EventType, KeyValue};

#[derive(Clone, Copy)]
pub(crate) struct KvView<'a> {
    pub history: &'a History,
    pub slots: &'a Slots,
    pub arena: &'a Arena,
    pub compact_revision: i64,
}

impl<'a> KvView<'a> {
    pub fn lease_of(&self, change: &Change) -> i64 {
        if !change.is_leased() || change.is_tombstone() {
            return 0;
        }
        let bytes = self.arena.get(change.handle, 0, 8);
        <[u8; 8]>::try_from(bytes).map_or(0, i64::from_le_bytes)
    }

    pub fn value_of(&self, change: &Change) -> &'a [u8] {
        if change.is_tombstone() {
            return &[];
        }
        let skip = if change.is_leased() { 8 } else { 0 };
        self.arena.get(change.handle, skip, change.len as usize)
    }

    /// The key-value of the put at `slot.revs[index]`; `None` for a tombstone.
    pub fn kv_at(&self, slot: &KeySlot, index: usize, keys_only: bool) -> Option<KeyValue> {
        let change = self.history.get(*slot.revs.get(index)?)?;
        if change.is_tombstone() {
            return None;
        }
        let meta = slot.meta(index, self.history);
        Some(KeyValue {
            key: slot.key.to_vec(),
            create_revision: meta.create_revision,
            mod_revision: change.main,
            version: meta.version,
            value: if keys_only {
                Vec::new()
            } else {
                self.value_of(change).to_vec()
            },
            lease: self.lease_of(change),
        })
    }

    /// The event for the change at log `position`, with its `prev_kv` if asked for and retained
    /// (etcd reads it at `mod_revision - 1`, which fails below the compaction point).
    pub fn event_at(&self, position: u32, with_prev: bool) -> Option<Event> {
        let change = self.history.get(position)?;
        let slot = self.slots.get(change.slot as usize)?;
        let index = slot.revs.binary_search(&position).ok()?;
        // etcd reads prev_kv at `mod_revision - 1`: the newest version of an earlier revision
        // (a nested txn may have changed the key earlier in this same revision).
        let prev_kv = if with_prev && change.main > self.compact_revision {
            let earlier = slot.revs.get(..index).and_then(|revs| {
                revs.iter()
                    .rposition(|&p| self.history.main_at(p) < change.main)
            });
            earlier.and_then(|i| self.kv_at(slot, i, false))
        } else {
            None
        };
        if change.is_tombstone() {
            let kv = KeyValue {
                key: slot.key.to_vec(),
                mod_revision: change.main,
                ..KeyValue::default()
            };
            return Some(Event {
                kind: EventType::Delete,
                kv,
                prev_kv,
            });
        }
        Some(Event {
            kind: EventType::Put,
            kv: self.kv_at(slot, index, false)?,
            prev_kv,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::history::{Change, LEASED};
    use crate::{PutOptions, Store};

    #[test]
    fn reads_values_and_leases_and_never_panics_on_bad_handles() {
        let mut store = Store::new();
        let lease = store.lease_grant(0, 10, 0).unwrap().id;
        store
            .put_with(
                b"/k",
                b"value",
                PutOptions {
                    lease,
                    ..PutOptions::default()
                },
            )
            .unwrap();
        let view = store.view();
        let change = *view.history.get(0).unwrap();
        assert_eq!(
            (view.value_of(&change), view.lease_of(&change)),
            (&b"value"[..], lease)
        );
        let bogus = Change {
            main: 2,
            slot: 99,
            sub_flags: LEASED,
            handle: u32::MAX,
            len: 5,
        };
        assert_eq!(
            (view.value_of(&bogus), view.lease_of(&bogus)),
            (&b""[..], 0)
        );
        assert!(view.event_at(7, true).is_none());
        let event = view.event_at(0, true).unwrap();
        assert!(event.is_create() && event.prev_kv.is_none());
    }
}

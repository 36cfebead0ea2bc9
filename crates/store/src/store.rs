//! The store: an ordered index of keys over a revision-ordered change log, with puts and
//! deletes, and the revision bookkeeping every write shares (one revision per atomic write,
//! none for a write that changes nothing).

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::arena::Arena;
use crate::history::{Change, History, LEASED, SUB_MASK, TOMBSTONE};
use crate::key_index::{KeySlot, Slots};
use crate::lease::Lessor;
use crate::range::bounds;
use crate::view::KvView;
use crate::wal::WalWriter;
use crate::watch::{Watchers, DEFAULT_WATCH_BUFFER_EVENTS};
use crate::{KeyValue, StoreError};

/// `DefaultMaxRequestBytes`, 1.5 MiB — etcd server/embed/config.go.
pub const MAX_REQUEST_BYTES: usize = 1536 * 1024;

/// Tunables; `StoreOptions::default()` is what `Store::new()` uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreOptions {
    /// Events a watcher may hold undelivered before it falls back to catching up from history.
    pub watch_buffer_events: usize,
    /// Produce WAL records (drained with `Store::take_wal`).
    pub wal: bool,
    /// Smallest lease TTL in seconds; shorter grants are raised to it.
    pub min_lease_ttl: i64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            watch_buffer_events: DEFAULT_WATCH_BUFFER_EVENTS,
            wal: true,
            min_lease_ttl: crate::lease::MIN_LEASE_TTL,
        }
    }
}

/// Options of a put (etcd's `PutRequest` flags).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PutOptions {
    /// Lease to attach; 0 for none (a put without `ignore_lease` detaches the old one).
    pub lease: i64,
    /// Return the key-value before the put.
    pub prev_kv: bool,
    /// Keep the current value (the key must exist; `value` must be empty).
    pub ignore_value: bool,
    /// Keep the current lease (the key must exist; `lease` must be 0).
    pub ignore_lease: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PutResponse {
    /// The store revision after the put.
    pub revision: i64,
    pub prev_kv: Option<KeyValue>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeleteRangeRequest {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    pub prev_kv: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeleteRangeResponse {
    pub revision: i64,
    pub deleted: i64,
    pub prev_kvs: Vec<KeyValue>,
}

/// The MVCC store.
#[derive(Debug)]
pub struct Store {
    /// Starts at 1 like etcd (`kvstore.go` currentRev), so the first write is revision 2.
    pub(crate) current_revision: i64,
    /// -1 until the first compaction (`kvstore.go` compactMainRev).
    pub(crate) compact_revision: i64,
    pub(crate) index: BTreeMap<Rc<[u8]>, u32>,
    pub(crate) slots: Slots,
    pub(crate) free_slots: Vec<u32>,
    pub(crate) history: History,
    pub(crate) arena: Arena,
    pub(crate) lessor: Lessor,
    pub(crate) watchers: Watchers,
    pub(crate) wal: WalWriter,
    /// Changes made so far in the open revision (the txn being applied).
    pub(crate) pending: u32,
    pub(crate) options: StoreOptions,
    empty_key: Rc<[u8]>,
}

impl Default for Store {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    /// An empty store at revision 1.
    pub fn new() -> Self {
        Self::with_options(StoreOptions::default())
    }

    /// An empty store with tunables, e.g.
    /// `Store::with_options(StoreOptions { wal: false, ..StoreOptions::default() })`.
    pub fn with_options(options: StoreOptions) -> Self {
        Store {
            current_revision: 1,
            compact_revision: -1,
            index: BTreeMap::new(),
            slots: Slots::default(),
            free_slots: Vec::new(),
            history: History::default(),
            arena: Arena::default(),
            lessor: Lessor::default(),
            watchers: Watchers::new(options.watch_buffer_events),
            wal: WalWriter::new(options.wal),
            pending: 0,
            empty_key: Rc::from(&[][..]),
            options,
        }
    }

    /// The revision of the last write (1 for an empty store).
    pub fn current_revision(&self) -> i64 {
        self.current_revision
    }

    /// The last compaction revision; -1 before the first.
    pub fn compact_revision(&self) -> i64 {
        self.compact_revision
    }

    /// The current revision of a read view: inside a write that has changed something, the
    /// revision being written (etcd's `storeTxnWrite.Range` reads at `beginRev + 1`).
    pub(crate) fn view_revision(&self) -> i64 {
        self.current_revision + i64::from(self.pending > 0)
    }

    /// Writes `value` at `key` in a new revision and returns the stored key-value.
    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<KeyValue, StoreError> {
        self.put_with(key, value, PutOptions::default())?;
        self.latest_kv(key).ok_or(StoreError::KeyNotFound)
    }

    /// A put with etcd's flags; allocates nothing beyond storing the key (once) and the value
    /// unless `prev_kv` is asked for.
    pub fn put_with(
        &mut self,
        key: &[u8],
        value: &[u8],
        options: PutOptions,
    ) -> Result<PutResponse, StoreError> {
        if key.len() + value.len() > MAX_REQUEST_BYTES {
            return Err(StoreError::RequestTooLarge);
        }
        // One index search serves the checks and the write.
        let slot = self.index.get(key).copied();
        let bytes = self.check_put_in(slot, key, value, &options)?;
        if !self.arena.fits(bytes) {
            return Err(StoreError::NoSpace);
        }
        let prev_kv = self.exec_put_in(slot, key, value, &options)?;
        self.commit(0);
        Ok(PutResponse {
            revision: self.current_revision,
            prev_kv,
        })
    }

    /// Deletes the keys of `[key, range_end)` in one revision (none if nothing was there).
    pub fn delete_range(
        &mut self,
        request: &DeleteRangeRequest,
    ) -> Result<DeleteRangeResponse, StoreError> {
        if request.key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        if request.key.len() + request.range_end.len() > MAX_REQUEST_BYTES {
            return Err(StoreError::RequestTooLarge);
        }
        let mut response = self.exec_delete_range(request);
        self.commit(0);
        response.revision = self.current_revision;
        Ok(response)
    }

    /// etcd's put checks (`checkPutRequest`, `checkRequestPut`) against the current state;
    /// returns the arena bytes the put will take.
    pub(crate) fn check_put(
        &self,
        key: &[u8],
        value: &[u8],
        options: &PutOptions,
    ) -> Result<usize, StoreError> {
        self.check_put_in(self.index.get(key).copied(), key, value, options)
    }

    fn check_put_in(
        &self,
        slot: Option<u32>,
        key: &[u8],
        value: &[u8],
        options: &PutOptions,
    ) -> Result<usize, StoreError> {
        if key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        if options.ignore_value && !value.is_empty() {
            return Err(StoreError::ValueProvided);
        }
        if options.ignore_lease && options.lease != 0 {
            return Err(StoreError::LeaseProvided);
        }
        let live = self.live_change_in(slot);
        if (options.ignore_value || options.ignore_lease) && live.is_none() {
            return Err(StoreError::KeyNotFound);
        }
        if options.lease != 0 && !self.lessor.contains(options.lease) {
            return Err(StoreError::LeaseNotFound);
        }
        let value_len = match (options.ignore_value, live) {
            (true, Some(c)) => c.len as usize,
            _ => value.len(),
        };
        Ok(value_len + 8)
    }

    /// The latest change of `key` if the key is live.
    pub(crate) fn live_change(&self, key: &[u8]) -> Option<Change> {
        self.live_change_in(self.index.get(key).copied())
    }

    fn live_change_in(&self, slot: Option<u32>) -> Option<Change> {
        let slot = self.slots.get(slot? as usize)?;
        let change = *self.history.get(*slot.revs.last()?)?;
        (!change.is_tombstone()).then_some(change)
    }

    /// Applies a checked put inside the open revision; returns the previous key-value if asked.
    pub(crate) fn exec_put(
        &mut self,
        key: &[u8],
        value: &[u8],
        options: &PutOptions,
    ) -> Result<Option<KeyValue>, StoreError> {
        self.exec_put_in(self.index.get(key).copied(), key, value, options)
    }

    /// `exec_put` for a key whose slot (if any) was already looked up.
    fn exec_put_in(
        &mut self,
        slot: Option<u32>,
        key: &[u8],
        value: &[u8],
        options: &PutOptions,
    ) -> Result<Option<KeyValue>, StoreError> {
        let live = self.live_change_in(slot);
        let old_lease = live.map_or(0, |c| self.view().lease_of(&c));
        let lease = if options.ignore_lease {
            old_lease
        } else {
            options.lease
        };
        let prev_kv = match (
            options.prev_kv,
            slot.and_then(|s| self.slots.get(s as usize)),
        ) {
            (true, Some(s)) => self.view().kv_at(s, s.revs.len().wrapping_sub(1), false),
            _ => None,
        };
        let handle = match (options.ignore_value, live) {
            (true, Some(c)) => {
                // Copy the kept value within the arena (it may live in a chunk a new entry
                // cannot share, and a lease prefix may be added or dropped).
                let old = self.view().value_of(&c).to_vec();
                self.arena.push((lease != 0).then_some(lease), &old)?
            }
            _ => self.arena.push((lease != 0).then_some(lease), value)?,
        };
        let len = match (options.ignore_value, live) {
            (true, Some(c)) => c.len,
            _ => value.len() as u32,
        };
        let slot_id = match slot {
            Some(slot) => slot,
            None => self.new_slot(key)?,
        };
        let main = self.current_revision + 1;
        let sub_flags = (self.pending & SUB_MASK) | if lease != 0 { LEASED } else { 0 };
        let position = self.history.push(Change {
            main,
            slot: slot_id,
            sub_flags,
            handle,
            len,
        });
        if let Some(slot) = self.slots.get_mut(slot_id as usize) {
            slot.push_put(position, main, &self.history);
        }
        self.pending += 1;
        if old_lease != lease {
            if let Some(slot) = self.slots.get(slot_id as usize) {
                self.lessor.detach(old_lease, &slot.key);
                self.lessor.attach(lease, slot.key.clone());
            }
        }
        Ok(prev_kv)
    }

    /// Deletes the live keys of a range inside the open revision.
    pub(crate) fn exec_delete_range(
        &mut self,
        request: &DeleteRangeRequest,
    ) -> DeleteRangeResponse {
        let mut response = DeleteRangeResponse::default();
        let Some(range) = bounds(&request.key, &request.range_end) else {
            return response;
        };
        let victims: Vec<u32> = self
            .index
            .range::<[u8], _>(range)
            .filter(|(_, &slot)| {
                self.slots
                    .get(slot as usize)
                    .is_some_and(|s| s.is_live(&self.history))
            })
            .map(|(_, &slot)| slot)
            .collect();
        for slot in victims {
            if request.prev_kv {
                if let Some(kv) = self
                    .slots
                    .get(slot as usize)
                    .and_then(|s| self.view().kv_at(s, s.revs.len().wrapping_sub(1), false))
                {
                    response.prev_kvs.push(kv);
                }
            }
            self.exec_delete(slot);
            response.deleted += 1;
        }
        response
    }

    /// Writes a tombstone for a live key inside the open revision.
    pub(crate) fn exec_delete(&mut self, slot_id: u32) {
        let Some(slot) = self.slots.get(slot_id as usize) else {
            return;
        };
        let Some(&last) = slot.revs.last().and_then(|&p| self.history.get(p)) else {
            return;
        };
        if last.is_tombstone() {
            return;
        }
        let old_lease = self.view().lease_of(&last);
        if old_lease != 0 {
            self.lessor.detach(old_lease, &slot.key);
        }
        let main = self.current_revision + 1;
        let sub_flags = (self.pending & SUB_MASK) | TOMBSTONE;
        let position = self.history.push(Change {
            main,
            slot: slot_id,
            sub_flags,
            handle: 0,
            len: 0,
        });
        if let Some(slot) = self.slots.get_mut(slot_id as usize) {
            slot.revs.push(position);
        }
        self.pending += 1;
    }

    /// A slot for a key not in the index yet.
    fn new_slot(&mut self, key: &[u8]) -> Result<u32, StoreError> {
        let key: Rc<[u8]> = Rc::from(key);
        let id = match self.free_slots.pop() {
            Some(id) => {
                if let Some(slot) = self.slots.get_mut(id as usize) {
                    *slot = KeySlot::new(key.clone());
                }
                id
            }
            None => {
                let id = u32::try_from(self.slots.len()).map_err(|_| StoreError::NoSpace)?;
                self.slots.push(KeySlot::new(key.clone()));
                id
            }
        };
        self.index.insert(key, id);
        Ok(id)
    }

    /// Frees the slot of a key that compaction emptied.
    pub(crate) fn free_slot(&mut self, slot_id: u32) {
        if let Some(slot) = self.slots.get_mut(slot_id as usize) {
            self.index.remove(&slot.key);
            *slot = KeySlot::new(self.empty_key.clone());
            self.free_slots.push(slot_id);
        }
    }

    /// The latest live key-value of `key`.
    pub(crate) fn latest_kv(&self, key: &[u8]) -> Option<KeyValue> {
        let slot = self.slots.get(*self.index.get(key)? as usize)?;
        self.view()
            .kv_at(slot, slot.revs.len().checked_sub(1)?, false)
    }

    /// Closes the open revision: if it changed anything, the revision advances, its WAL record
    /// is written and the synced watchers get its events as one batch.
    pub(crate) fn commit(&mut self, revoked_lease: i64) {
        let changes = self.pending as usize;
        self.pending = 0;
        let view = KvView {
            history: &self.history,
            slots: &self.slots,
            arena: &self.arena,
            compact_revision: self.compact_revision,
        };
        if changes == 0 {
            if revoked_lease != 0 {
                self.wal
                    .changes(self.current_revision, revoked_lease, 0..0, view);
            }
            return;
        }
        let start = self.history.len() - changes;
        let positions = start as u32..self.history.len() as u32;
        self.wal
            .changes(self.current_revision + 1, revoked_lease, positions, view);
        self.current_revision += 1;
        self.notify_watchers(start as u32);
    }

    /// Number of keys with at least one retained version (live or not).
    pub fn key_count(&self) -> usize {
        self.index.len()
    }

    /// Number of retained versions (puts and tombstones) over all keys.
    pub fn version_count(&self) -> usize {
        self.history.len()
    }

    /// An honest estimate of the index's memory: the B-tree, the key slots, the change log and
    /// the lessor, excluding key bytes and value bytes (etcd's 120 B/key + 30 B/version
    /// excludes them too) and allocator headers.
    pub fn index_bytes(&self) -> usize {
        use std::mem::size_of;
        // std's B-tree: a leaf holds up to 11 keys and values plus a parent pointer and two
        // u16s; an internal node adds 12 edges, and there is about one per 6 leaves. Nodes are
        // assumed 60% full (sequential inserts leave ~55%, random ones ~70%).
        let entry = size_of::<Rc<[u8]>>() + size_of::<u32>();
        let leaf = 11 * entry + size_of::<usize>() + 4;
        let per_leaf = leaf + (leaf + 12 * size_of::<usize>()) / 6;
        let btree = self.index.len() * per_leaf * 10 / (11 * 6);
        // Each key's shared allocation carries two reference counts.
        let rc_headers = self.index.len() * 2 * size_of::<usize>();
        let slots = self.slots.allocated_bytes()
            + self
                .slots
                .iter()
                .map(KeySlot::allocated_bytes)
                .sum::<usize>()
            + self.free_slots.capacity() * 4;
        btree + rc_headers + slots + self.history.allocated_bytes() + self.lessor.index_bytes()
    }

    /// Arena bytes allocated for values (and lease ids), live or awaiting a rebuild.
    pub fn value_bytes(&self) -> usize {
        self.arena.allocated()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RangeRequest;

    fn get(store: &Store, key: &str) -> Option<KeyValue> {
        let request = RangeRequest {
            key: key.into(),
            ..RangeRequest::default()
        };
        store.range(&request).unwrap().kvs.pop()
    }

    #[test]
    fn revisions_and_versions_follow_etcd() {
        let mut store = Store::new();
        assert_eq!(store.current_revision(), 1);
        let first = store.put(b"/a", b"1").unwrap();
        assert_eq!(
            (first.create_revision, first.mod_revision, first.version),
            (2, 2, 1)
        );
        store.put(b"/b", b"x").unwrap();
        let second = store.put(b"/a", b"2").unwrap();
        assert_eq!(
            (second.create_revision, second.mod_revision, second.version),
            (2, 4, 2)
        );
        assert_eq!(store.current_revision(), 4);
        let deleted = store
            .delete_range(&DeleteRangeRequest {
                key: b"/a".to_vec(),
                prev_kv: true,
                ..Default::default()
            })
            .unwrap();
        assert_eq!((deleted.deleted, deleted.revision), (1, 5));
        assert_eq!(deleted.prev_kvs[0].value, b"2");
        let again = store.put(b"/a", b"3").unwrap();
        assert_eq!((again.create_revision, again.version), (6, 1));
    }

    #[test]
    fn delete_of_nothing_takes_no_revision() {
        let mut store = Store::new();
        let response = store
            .delete_range(&DeleteRangeRequest {
                key: b"/none".to_vec(),
                ..Default::default()
            })
            .unwrap();
        assert_eq!((response.deleted, response.revision), (0, 1));
        assert!(store.take_wal().is_empty());
    }

    #[test]
    fn put_flags_follow_etcd() {
        let mut store = Store::new();
        let lease = store.lease_grant(0, 60, 0).unwrap().id;
        let ignore_value = PutOptions {
            ignore_value: true,
            ..PutOptions::default()
        };
        assert_eq!(
            store.put_with(b"/k", b"", ignore_value),
            Err(StoreError::KeyNotFound)
        );
        assert_eq!(
            store.put_with(b"/k", b"v", ignore_value),
            Err(StoreError::ValueProvided)
        );
        let leased = PutOptions {
            lease,
            ..PutOptions::default()
        };
        store.put_with(b"/k", b"v", leased).unwrap();
        let kept = PutOptions {
            ignore_lease: true,
            prev_kv: true,
            ..PutOptions::default()
        };
        let response = store.put_with(b"/k", b"w", kept).unwrap();
        assert_eq!(response.prev_kv.map(|kv| kv.value), Some(b"v".to_vec()));
        assert_eq!(
            get(&store, "/k").map(|kv| (kv.value, kv.lease)),
            Some((b"w".to_vec(), lease))
        );
        store.put_with(b"/k", b"", ignore_value).unwrap();
        assert_eq!(
            get(&store, "/k").map(|kv| (kv.value, kv.version)),
            Some((b"w".to_vec(), 3))
        );
        let bad_lease = PutOptions {
            lease: 999,
            ..PutOptions::default()
        };
        assert_eq!(
            store.put_with(b"/k", b"x", bad_lease),
            Err(StoreError::LeaseNotFound)
        );
        let both = PutOptions {
            lease,
            ignore_lease: true,
            ..PutOptions::default()
        };
        assert_eq!(
            store.put_with(b"/k", b"x", both),
            Err(StoreError::LeaseProvided)
        );
        store.put(b"/k", b"plain").unwrap();
        assert_eq!(
            get(&store, "/k").map(|kv| kv.lease),
            Some(0),
            "a plain put detaches"
        );
    }

    #[test]
    fn bad_input_changes_nothing() {
        let mut store = Store::new();
        store.put(b"/a", b"1").unwrap();
        store.take_wal();
        assert_eq!(store.put(b"", b"v"), Err(StoreError::EmptyKey));
        let big = vec![0u8; MAX_REQUEST_BYTES];
        assert_eq!(store.put(b"/a", &big), Err(StoreError::RequestTooLarge));
        let empty = store.delete_range(&DeleteRangeRequest::default());
        assert_eq!(empty.unwrap_err().code(), "E_EMPTY_KEY");
        assert_eq!(store.current_revision(), 2);
        assert_eq!(get(&store, "/a").unwrap().value, b"1");
        assert!(store.take_wal().is_empty(), "no WAL for a failed write");
    }

    #[test]
    fn index_bytes_stay_within_the_target() {
        let mut store = Store::new();
        let keys = 20_000usize;
        for i in 0..keys {
            store
                .put(
                    format!("/registry/pods/default/pod-{i:08}").as_bytes(),
                    b"v",
                )
                .unwrap();
        }
        let one_version = store.index_bytes();
        assert!(
            one_version <= keys * 180,
            "{one_version} bytes for {keys} keys"
        );
        for round in 0..4 {
            for i in 0..keys {
                let key = format!("/registry/pods/default/pod-{i:08}");
                store
                    .put(key.as_bytes(), format!("{round}").as_bytes())
                    .unwrap();
            }
        }
        let five_versions = store.index_bytes();
        let per_version = (five_versions - one_version) / (keys * 4);
        assert!(per_version <= 32, "{per_version} bytes per extra version");
    }
}

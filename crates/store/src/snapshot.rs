//! Snapshots: the whole store state (keys with their history since compaction, revisions,
//! compaction point, leases, WAL sequence) in one checksummed buffer. Watches are not part of
//! it, as in etcd. Encoding iterates keys in order, so equal stores give equal bytes.
//!
//! Layout (integers little-endian; `bytes` = `len u32` then `len` bytes):
//! ```text
//! snapshot := magic "KWSNAP\0\x01" | wal_seq u64 | current_revision i64 | compact_revision i64
//!             | next_lease_id i64 | n_leases u32 | n_leases × (id i64 | ttl i64 | deadline_ms i64)
//!             | n_keys u64 | n_keys × key | crc u32 (CRC-32 of everything before it)
//! key      := key bytes | first_created i64 | first_version i64 | n_revs u32 | n_revs × rev
//! rev      := main i64 | sub u32 | flags u8 (1 = delete, 2 = leased) | [lease i64 if leased]
//!             | [value bytes if not a delete]
//! ```

use std::rc::Rc;

use crate::codec::Reader;
use crate::crc32::crc32;
use crate::history::{Change, LEASED, SUB_MASK, TOMBSTONE};
use crate::key_index::KeySlot;
use crate::{Store, StoreError, StoreOptions};

const MAGIC: &[u8; 8] = b"KWSNAP\0\x01";
/// The largest revision a snapshot may claim (2^62: centuries of writes at 10^9/s).
const MAX_REVISION: i64 = 1 << 62;
const FLAG_DELETE: u8 = 1;
const FLAG_LEASED: u8 = 2;

impl Store {
    /// Encodes the whole store state.
    pub fn snapshot(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + self.arena.live() + self.history.len() * 16);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.wal.seq.to_le_bytes());
        for n in [
            self.current_revision,
            self.compact_revision,
            self.lessor.next_id,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&(self.lessor.leases.len() as u32).to_le_bytes());
        for (id, lease) in &self.lessor.leases {
            for n in [*id, lease.ttl, lease.deadline_ms] {
                out.extend_from_slice(&n.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.index.len() as u64).to_le_bytes());
        let view = self.view();
        for &slot_id in self.index.values() {
            let Some(slot) = self.slots.get(slot_id as usize) else {
                continue;
            };
            put_bytes(&mut out, &slot.key);
            out.extend_from_slice(&slot.first_created.to_le_bytes());
            out.extend_from_slice(&slot.first_version.to_le_bytes());
            out.extend_from_slice(&(slot.revs.len() as u32).to_le_bytes());
            for &position in &slot.revs {
                let Some(change) = self.history.get(position) else {
                    continue;
                };
                out.extend_from_slice(&change.main.to_le_bytes());
                out.extend_from_slice(&(change.sub() as u32).to_le_bytes());
                let flags = if change.is_tombstone() {
                    FLAG_DELETE
                } else if change.is_leased() {
                    FLAG_LEASED
                } else {
                    0
                };
                out.push(flags);
                if flags & FLAG_LEASED != 0 {
                    out.extend_from_slice(&view.lease_of(change).to_le_bytes());
                }
                if flags & FLAG_DELETE == 0 {
                    put_bytes(&mut out, view.value_of(change));
                }
            }
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Rebuilds a store from `snapshot()` bytes; any damage is `E_CORRUPT_SNAPSHOT`.
    pub fn restore(bytes: &[u8]) -> Result<Store, StoreError> {
        Self::restore_with_options(bytes, StoreOptions::default())
    }

    /// `restore` with tunables (watch buffer size, WAL on or off, minimum lease TTL).
    pub fn restore_with_options(bytes: &[u8], options: StoreOptions) -> Result<Store, StoreError> {
        let corrupt = |reason| StoreError::CorruptSnapshot { reason };
        let body_len = bytes.len().checked_sub(4).ok_or(corrupt("too short"))?;
        let (body, crc) = bytes.split_at(body_len);
        if crc32(body).to_le_bytes() != crc {
            return Err(corrupt("checksum mismatch"));
        }
        let mut r = Reader::new(body);
        if r.take(MAGIC.len()) != Some(&MAGIC[..]) {
            return Err(corrupt("bad magic"));
        }
        let truncated = || corrupt("truncated");
        let mut store = Store::with_options(options);
        store.wal.seq = r.u64().ok_or_else(truncated)?;
        store.current_revision = r.i64().ok_or_else(truncated)?;
        store.compact_revision = r.i64().ok_or_else(truncated)?;
        let next_lease_id = r.i64().ok_or_else(truncated)?;
        // Revisions far below i64::MAX keep every later `+ 1` exact.
        if store.current_revision < 1
            || store.current_revision > MAX_REVISION
            || store.compact_revision > store.current_revision
        {
            return Err(corrupt("bad revisions"));
        }
        let n_leases = r.u32().ok_or_else(truncated)?;
        for _ in 0..n_leases {
            let (id, ttl, deadline) = (
                r.i64().ok_or_else(truncated)?,
                r.i64().ok_or_else(truncated)?,
                r.i64().ok_or_else(truncated)?,
            );
            if id == 0 || store.lessor.contains(id) {
                return Err(corrupt("bad lease"));
            }
            store.lessor.insert(id, ttl, deadline);
        }
        store.lessor.next_id = store.lessor.next_id.max(next_lease_id);

        let n_keys = r.u64().ok_or_else(truncated)?;
        let mut changes: Vec<Change> = Vec::new();
        let mut previous: Option<Rc<[u8]>> = None;
        for slot_id in 0..n_keys {
            let slot_id = u32::try_from(slot_id).map_err(|_| corrupt("too many keys"))?;
            let key: Rc<[u8]> = Rc::from(r.bytes().ok_or_else(truncated)?);
            if key.is_empty() || previous.as_ref().is_some_and(|p| *p >= key) {
                return Err(corrupt("keys out of order"));
            }
            let mut slot = KeySlot::new(key.clone());
            slot.first_created = r.i64().ok_or_else(truncated)?;
            slot.first_version = r.i64().ok_or_else(truncated)?;
            let n_revs = r.u32().ok_or_else(truncated)?;
            if n_revs == 0 {
                return Err(corrupt("key without versions"));
            }
            // Nested txns can change one key twice in a revision, so order by (main, sub).
            let mut last = (0i64, 0u32);
            let mut gens = Vec::new();
            for i in 0..n_revs {
                let main = r.i64().ok_or_else(truncated)?;
                let sub = r.u32().ok_or_else(truncated)?;
                let flags = r.u8().ok_or_else(truncated)?;
                if (main, sub) <= last
                    || main < 1
                    || main > store.current_revision
                    || sub > SUB_MASK
                    || flags > 2
                {
                    return Err(corrupt("bad revision"));
                }
                last = (main, sub);
                let mut change = Change {
                    main,
                    slot: slot_id,
                    sub_flags: sub,
                    handle: 0,
                    len: 0,
                };
                if flags & FLAG_DELETE != 0 {
                    change.sub_flags |= TOMBSTONE;
                    if i + 1 < n_revs {
                        gens.push(i + 1);
                    }
                } else {
                    let lease = if flags & FLAG_LEASED != 0 {
                        let lease = r.i64().ok_or_else(truncated)?;
                        // Old versions may name since-revoked leases; a live one may not.
                        if i + 1 == n_revs && !store.lessor.contains(lease) {
                            return Err(corrupt("unknown lease"));
                        }
                        change.sub_flags |= LEASED;
                        Some(lease)
                    } else {
                        None
                    };
                    let value = r.bytes().ok_or_else(truncated)?;
                    change.len = value.len() as u32;
                    change.handle = store.arena.push(lease, value)?;
                    if i + 1 == n_revs {
                        if let Some(lease) = lease {
                            store.lessor.attach(lease, key.clone());
                        }
                    }
                }
                changes.push(change);
            }
            slot.gens = (!gens.is_empty()).then(|| Box::new(gens));
            store.slots.push(slot);
            store.index.insert(key.clone(), slot_id);
            previous = Some(key);
        }
        if !r.is_empty() {
            return Err(corrupt("trailing bytes"));
        }
        changes.sort_by_key(|c| (c.main, c.sub()));
        if changes
            .windows(2)
            .any(|w| (w[0].main, w[0].sub()) == (w[1].main, w[1].sub()))
        {
            return Err(corrupt("duplicate revision"));
        }
        for change in changes {
            let position = store.history.push(change);
            if let Some(slot) = store.slots.get_mut(change.slot as usize) {
                slot.revs.push(position);
            }
        }
        Ok(store)
    }
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeleteRangeRequest, PutOptions, RangeRequest};

    fn sample() -> Store {
        let mut store = Store::new();
        let lease = store.lease_grant(0, 30, 0).unwrap().id;
        for i in 0..5 {
            store
                .put(
                    format!("/k/{}", i % 3).as_bytes(),
                    format!("{i}").as_bytes(),
                )
                .unwrap();
        }
        store
            .put_with(
                b"/leased",
                b"v",
                PutOptions {
                    lease,
                    ..PutOptions::default()
                },
            )
            .unwrap();
        store
            .delete_range(&DeleteRangeRequest {
                key: b"/k/0".to_vec(),
                ..Default::default()
            })
            .unwrap();
        store.put(b"/k/0", b"again").unwrap();
        store.compact(5).unwrap();
        store
    }

    #[test]
    fn snapshot_round_trips() {
        let store = sample();
        let bytes = store.snapshot();
        let restored = Store::restore(&bytes).unwrap();
        assert_eq!(restored.snapshot(), bytes);
        let all = RangeRequest {
            key: vec![0],
            range_end: vec![0],
            ..RangeRequest::default()
        };
        assert_eq!(restored.range(&all), store.range(&all));
        let old = RangeRequest { revision: 5, ..all };
        assert_eq!(restored.range(&old), store.range(&old));
        assert_eq!(restored.leases(), store.leases());
        assert_eq!(
            restored.lease_time_to_live(1, 0, true),
            store.lease_time_to_live(1, 0, true)
        );
    }

    #[test]
    fn damage_is_detected_never_a_panic() {
        let bytes = sample().snapshot();
        for cut in [0, 3, 8, 20, bytes.len() / 2, bytes.len() - 1] {
            assert_eq!(
                Store::restore(&bytes[..cut]).unwrap_err().code(),
                "E_CORRUPT_SNAPSHOT"
            );
        }
        for i in (0..bytes.len()).step_by(7) {
            let mut flipped = bytes.clone();
            flipped[i] ^= 1;
            assert!(Store::restore(&flipped).is_err(), "flip at {i}");
        }
    }
}

//! Write-ahead-log records. Every committed change produces one record, appended to a buffer
//! the caller drains with `Store::take_wal` and writes to disk (file I/O lives in TypeScript).
//! Replaying a snapshot and the records after it rebuilds an identical store.
//!
//! Record layout (all integers little-endian):
//! ```text
//! record  := len u32 | crc u32 | payload            crc = CRC-32 (IEEE) of payload, len = |payload|
//! payload := kind u8 | seq u64 | body                seq counts records from 1, without gaps
//! kind 1 CHANGES    body := revision i64 | revoked_lease i64 | n u32 | n × change
//!                   change := flags u8 (1 = delete, 2 = leased) | key_len u32 | key
//!                             | [lease i64 if leased] | [value_len u32 | value  if not a delete]
//!                   (n = 0 with revoked_lease ≠ 0: a revoke that deleted nothing)
//! kind 2 GRANT      body := id i64 | ttl i64 | deadline_ms i64
//! kind 3 KEEPALIVE  body := id i64 | deadline_ms i64
//! kind 4 COMPACT    body := revision i64
//! kind 5 REFRESH    body := now_ms i64          (every lease renewed to its full TTL)
//! ```
//! The decoder stops at the first record that is incomplete (a torn write) or fails its CRC or
//! does not parse (corruption), and reports that offset: everything before it is intact.

use std::ops::Range;

use crate::codec::Reader;
use crate::crc32::crc32;
use crate::store::PutOptions;
use crate::view::KvView;
use crate::{Store, StoreError};

const KIND_CHANGES: u8 = 1;
const KIND_GRANT: u8 = 2;
const KIND_KEEPALIVE: u8 = 3;
const KIND_COMPACT: u8 = 4;
const KIND_REFRESH: u8 = 5;
const FLAG_DELETE: u8 = 1;
const FLAG_LEASED: u8 = 2;
const HEADER: usize = 8;

#[derive(Debug)]
pub(crate) struct WalWriter {
    buf: Vec<u8>,
    /// The sequence number of the last record written or applied.
    pub seq: u64,
    enabled: bool,
}

impl WalWriter {
    pub fn new(enabled: bool) -> Self {
        WalWriter {
            buf: Vec::new(),
            seq: 0,
            enabled,
        }
    }

    fn begin(&mut self, kind: u8) -> usize {
        self.seq += 1;
        let start = self.buf.len();
        self.buf.extend_from_slice(&[0; HEADER]);
        self.buf.push(kind);
        self.buf.extend_from_slice(&self.seq.to_le_bytes());
        start
    }

    fn finish(&mut self, start: usize) {
        let payload = self.buf.get(start + HEADER..).unwrap_or(&[]);
        let len = payload.len() as u32;
        let crc = crc32(payload);
        if let Some(header) = self.buf.get_mut(start..start + HEADER) {
            header[..4].copy_from_slice(&len.to_le_bytes());
            header[4..].copy_from_slice(&crc.to_le_bytes());
        }
    }

    fn i64(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    fn bytes(&mut self, v: &[u8]) {
        self.buf.extend_from_slice(&(v.len() as u32).to_le_bytes());
        self.buf.extend_from_slice(v);
    }

    pub fn changes(
        &mut self,
        revision: i64,
        revoked_lease: i64,
        positions: Range<u32>,
        view: KvView<'_>,
    ) {
        if !self.enabled {
            return;
        }
        let start = self.begin(KIND_CHANGES);
        self.i64(revision);
        self.i64(revoked_lease);
        self.buf
            .extend_from_slice(&(positions.len() as u32).to_le_bytes());
        for position in positions {
            let Some(change) = view.history.get(position) else {
                continue;
            };
            let key = view
                .slots
                .get(change.slot as usize)
                .map_or(&[][..], |s| &s.key[..]);
            let flags = if change.is_tombstone() {
                FLAG_DELETE
            } else if change.is_leased() {
                FLAG_LEASED
            } else {
                0
            };
            self.buf.push(flags);
            self.bytes(key);
            if flags & FLAG_LEASED != 0 {
                self.i64(view.lease_of(change));
            }
            if flags & FLAG_DELETE == 0 {
                self.bytes(view.value_of(change));
            }
        }
        self.finish(start);
    }

    pub fn lease_grant(&mut self, id: i64, ttl: i64, deadline_ms: i64) {
        if self.enabled {
            let start = self.begin(KIND_GRANT);
            self.i64(id);
            self.i64(ttl);
            self.i64(deadline_ms);
            self.finish(start);
        }
    }

    pub fn lease_keep_alive(&mut self, id: i64, deadline_ms: i64) {
        if self.enabled {
            let start = self.begin(KIND_KEEPALIVE);
            self.i64(id);
            self.i64(deadline_ms);
            self.finish(start);
        }
    }

    pub fn lease_refresh_all(&mut self, now_ms: i64) {
        if self.enabled {
            let start = self.begin(KIND_REFRESH);
            self.i64(now_ms);
            self.finish(start);
        }
    }

    pub fn compact(&mut self, revision: i64) {
        if self.enabled {
            let start = self.begin(KIND_COMPACT);
            self.i64(revision);
            self.finish(start);
        }
    }
}

/// One change inside a CHANGES record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalChange {
    pub key: Vec<u8>,
    /// `None` for a delete.
    pub value: Option<Vec<u8>>,
    pub lease: i64,
}

/// A decoded WAL record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalRecord {
    Changes {
        seq: u64,
        revision: i64,
        revoked_lease: i64,
        changes: Vec<WalChange>,
    },
    LeaseGrant {
        seq: u64,
        id: i64,
        ttl: i64,
        deadline_ms: i64,
    },
    LeaseKeepAlive {
        seq: u64,
        id: i64,
        deadline_ms: i64,
    },
    Compact {
        seq: u64,
        revision: i64,
    },
    LeaseRefreshAll {
        seq: u64,
        now_ms: i64,
    },
}

impl WalRecord {
    /// The record's sequence number.
    pub fn seq(&self) -> u64 {
        match self {
            WalRecord::Changes { seq, .. }
            | WalRecord::LeaseGrant { seq, .. }
            | WalRecord::LeaseKeepAlive { seq, .. }
            | WalRecord::Compact { seq, .. }
            | WalRecord::LeaseRefreshAll { seq, .. } => *seq,
        }
    }
}

/// Where and why a WAL buffer stops being valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalTail {
    /// Byte offset of the first bad record: truncate the file here.
    pub offset: usize,
    pub reason: WalTailReason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalTailReason {
    /// The buffer ends inside a record header or payload (a torn write).
    Truncated,
    /// The payload's CRC does not match.
    ChecksumMismatch,
    /// The CRC matches but the payload does not parse.
    Malformed,
    /// The record parses but cannot be applied (sequence gap, wrong revision, unknown lease…).
    Rejected,
}

/// The outcome of `Store::replay_wal`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalReplay {
    /// Records applied.
    pub applied: usize,
    /// Records skipped because the store already had them (sequence ≤ its own).
    pub skipped: usize,
    /// Bytes of intact, applied-or-skipped records: the length to keep.
    pub valid_len: usize,
    pub tail: Option<WalTail>,
}

/// Decodes concatenated records; stops at the first bad one and reports it.
pub fn decode_wal(buf: &[u8]) -> (Vec<WalRecord>, Option<WalTail>) {
    let mut records = Vec::new();
    let mut offset = 0;
    while offset < buf.len() {
        match decode_one(buf, offset) {
            Ok((record, next)) => {
                records.push(record);
                offset = next;
            }
            Err(reason) => return (records, Some(WalTail { offset, reason })),
        }
    }
    (records, None)
}

fn decode_one(buf: &[u8], offset: usize) -> Result<(WalRecord, usize), WalTailReason> {
    let header = buf
        .get(offset..offset + HEADER)
        .ok_or(WalTailReason::Truncated)?;
    let mut r = Reader::new(header);
    let len = r.u32().ok_or(WalTailReason::Truncated)? as usize;
    let crc = r.u32().ok_or(WalTailReason::Truncated)?;
    let start = offset + HEADER;
    let payload = buf
        .get(start..start.saturating_add(len))
        .ok_or(WalTailReason::Truncated)?;
    if crc32(payload) != crc {
        return Err(WalTailReason::ChecksumMismatch);
    }
    let record = parse_payload(payload).ok_or(WalTailReason::Malformed)?;
    Ok((record, start + len))
}

fn parse_payload(payload: &[u8]) -> Option<WalRecord> {
    let mut r = Reader::new(payload);
    let kind = r.u8()?;
    let seq = r.u64()?;
    let record = match kind {
        KIND_CHANGES => {
            let revision = r.i64()?;
            let revoked_lease = r.i64()?;
            let n = r.u32()? as usize;
            let mut changes = Vec::with_capacity(n.min(r.remaining()));
            for _ in 0..n {
                let flags = r.u8()?;
                let key = r.bytes()?.to_vec();
                let lease = if flags & FLAG_LEASED != 0 {
                    r.i64()?
                } else {
                    0
                };
                let value = if flags & FLAG_DELETE != 0 {
                    None
                } else {
                    Some(r.bytes()?.to_vec())
                };
                changes.push(WalChange { key, value, lease });
            }
            WalRecord::Changes {
                seq,
                revision,
                revoked_lease,
                changes,
            }
        }
        KIND_GRANT => WalRecord::LeaseGrant {
            seq,
            id: r.i64()?,
            ttl: r.i64()?,
            deadline_ms: r.i64()?,
        },
        KIND_KEEPALIVE => WalRecord::LeaseKeepAlive {
            seq,
            id: r.i64()?,
            deadline_ms: r.i64()?,
        },
        KIND_REFRESH => WalRecord::LeaseRefreshAll {
            seq,
            now_ms: r.i64()?,
        },
        KIND_COMPACT => WalRecord::Compact {
            seq,
            revision: r.i64()?,
        },
        _ => return None,
    };
    r.is_empty().then_some(record)
}

impl Store {
    /// The WAL bytes produced since the last call (empty if `StoreOptions::wal` is off).
    pub fn take_wal(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.wal.buf)
    }

    /// Appends the pending WAL bytes to `out` and clears them (no allocation if `out` has room).
    pub fn drain_wal_into(&mut self, out: &mut Vec<u8>) {
        out.append(&mut self.wal.buf);
    }

    /// The sequence number of the last WAL record written or applied.
    pub fn wal_seq(&self) -> u64 {
        self.wal.seq
    }

    /// Applies one decoded record. Records at or below the store's sequence are skipped
    /// (`Ok(false)`); the next one must follow it exactly. All-or-nothing: a record that does
    /// not fit the store's state is refused with `E_CORRUPT_WAL` and changes nothing.
    pub fn apply_wal_record(&mut self, record: &WalRecord) -> Result<bool, StoreError> {
        let seq = record.seq();
        if seq <= self.wal.seq {
            return Ok(false);
        }
        if seq != self.wal.seq + 1 {
            return Err(StoreError::CorruptWal {
                reason: "sequence gap",
            });
        }
        let enabled = std::mem::replace(&mut self.wal.enabled, false);
        let result = self.apply_record(record);
        self.wal.enabled = enabled;
        result?;
        self.wal.seq = seq;
        Ok(true)
    }

    fn apply_record(&mut self, record: &WalRecord) -> Result<(), StoreError> {
        let rejected = |reason| StoreError::CorruptWal { reason };
        match record {
            WalRecord::Changes {
                revision,
                revoked_lease,
                changes,
                ..
            } => {
                if !changes.is_empty() && *revision != self.current_revision + 1 {
                    return Err(rejected("revision out of order"));
                }
                if *revoked_lease != 0 && !self.lessor.contains(*revoked_lease) {
                    return Err(rejected("unknown lease"));
                }
                let mut bytes = 0;
                for (i, change) in changes.iter().enumerate() {
                    if change.key.is_empty() {
                        return Err(rejected("bad key"));
                    }
                    // Live as of this change: after the record's own earlier changes to the key
                    // (nested txns may touch a key twice), else before the record.
                    let earlier = changes
                        .get(..i)
                        .and_then(|c| c.iter().rev().find(|c| c.key == change.key));
                    let live = match earlier {
                        Some(c) => c.value.is_some(),
                        None => self.live_change(&change.key).is_some(),
                    };
                    match &change.value {
                        Some(value) => {
                            if change.lease != 0 && !self.lessor.contains(change.lease) {
                                return Err(rejected("unknown lease"));
                            }
                            bytes += value.len() + 8;
                        }
                        None if !live => return Err(rejected("delete of a missing key")),
                        None => {}
                    }
                }
                if let Some(lease) = self.lessor.leases.get(revoked_lease) {
                    // A revoke deletes every attached key in the same record.
                    let deleted =
                        |k: &[u8]| changes.iter().any(|c| c.value.is_none() && c.key == k);
                    if !lease.keys.iter().all(|k| deleted(k)) {
                        return Err(rejected("revoke leaves keys attached"));
                    }
                }
                if !self.arena.fits(bytes) {
                    return Err(StoreError::NoSpace);
                }
                for change in changes {
                    match &change.value {
                        Some(value) => {
                            let options = PutOptions {
                                lease: change.lease,
                                ..PutOptions::default()
                            };
                            self.exec_put(&change.key, value, &options)?;
                        }
                        None => {
                            if let Some(&slot) = self.index.get(change.key.as_slice()) {
                                self.exec_delete(slot);
                            }
                        }
                    }
                }
                if *revoked_lease != 0 {
                    self.lessor.leases.remove(revoked_lease);
                }
                self.commit(*revoked_lease);
                Ok(())
            }
            WalRecord::LeaseGrant {
                id,
                ttl,
                deadline_ms,
                ..
            } => {
                if *id == 0 || self.lessor.contains(*id) {
                    return Err(rejected("lease exists"));
                }
                self.lessor.insert(*id, *ttl, *deadline_ms);
                Ok(())
            }
            WalRecord::LeaseKeepAlive {
                id, deadline_ms, ..
            } => {
                let lease = self
                    .lessor
                    .leases
                    .get_mut(id)
                    .ok_or(rejected("unknown lease"))?;
                lease.deadline_ms = *deadline_ms;
                Ok(())
            }
            WalRecord::Compact { revision, .. } => self.compact(*revision),
            WalRecord::LeaseRefreshAll { now_ms, .. } => {
                for lease in self.lessor.leases.values_mut() {
                    lease.deadline_ms = crate::lease::deadline(*now_ms, lease.ttl);
                }
                Ok(())
            }
        }
    }

    /// Decodes and applies a buffer of concatenated records (a WAL file's bytes), stopping at
    /// the first torn, corrupt or inapplicable record, whose offset the result reports.
    pub fn replay_wal(&mut self, buf: &[u8]) -> WalReplay {
        let mut replay = WalReplay::default();
        let mut offset = 0;
        while offset < buf.len() {
            let (record, next) = match decode_one(buf, offset) {
                Ok(decoded) => decoded,
                Err(reason) => {
                    replay.tail = Some(WalTail { offset, reason });
                    break;
                }
            };
            match self.apply_wal_record(&record) {
                Ok(true) => replay.applied += 1,
                Ok(false) => replay.skipped += 1,
                Err(_) => {
                    replay.tail = Some(WalTail {
                        offset,
                        reason: WalTailReason::Rejected,
                    });
                    break;
                }
            }
            offset = next;
            replay.valid_len = offset;
        }
        replay
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeleteRangeRequest, StoreOptions};

    fn workload(store: &mut Store) {
        let lease = store.lease_grant(0, 10, 0).unwrap().id;
        store.put(b"/a", b"1").unwrap();
        store
            .put_with(
                b"/b",
                b"2",
                PutOptions {
                    lease,
                    ..PutOptions::default()
                },
            )
            .unwrap();
        store
            .delete_range(&DeleteRangeRequest {
                key: b"/a".to_vec(),
                ..Default::default()
            })
            .unwrap();
        store.lease_keep_alive(lease, 500).unwrap();
        store.put(b"/c", b"3").unwrap();
        store.compact(3).unwrap();
        store.lease_refresh_all(900);
        store.lease_revoke(lease).unwrap();
    }

    #[test]
    fn replay_reproduces_the_store() {
        let mut store = Store::new();
        workload(&mut store);
        let wal = store.take_wal();
        let (records, tail) = decode_wal(&wal);
        assert_eq!((records.len(), tail), (9, None));
        let mut replayed = Store::new();
        let replay = replayed.replay_wal(&wal);
        assert_eq!(
            (replay.applied, replay.valid_len, replay.tail),
            (9, wal.len(), None)
        );
        assert_eq!(replayed.snapshot(), store.snapshot());
        assert!(
            replayed.take_wal().is_empty(),
            "replay writes no WAL of its own"
        );
        // Replaying again skips everything.
        assert_eq!(replayed.replay_wal(&wal).skipped, 9);
    }

    #[test]
    fn torn_and_corrupt_tails_are_reported_with_their_offset() {
        let mut store = Store::new();
        workload(&mut store);
        let wal = store.take_wal();
        let (records, _) = decode_wal(&wal);
        let mut boundaries = vec![0usize];
        for _ in &records {
            let last = *boundaries.last().unwrap();
            let len = u32::from_le_bytes(wal[last..last + 4].try_into().unwrap()) as usize;
            boundaries.push(last + 8 + len);
        }
        let cut = boundaries[3] + 5;
        let (_, tail) = decode_wal(&wal[..cut]);
        assert_eq!(
            tail,
            Some(WalTail {
                offset: boundaries[3],
                reason: WalTailReason::Truncated
            })
        );
        let mut replayed = Store::new();
        let replay = replayed.replay_wal(&wal[..cut]);
        assert_eq!((replay.applied, replay.valid_len), (3, boundaries[3]));
        let mut flipped = wal.clone();
        flipped[boundaries[5] + 12] ^= 0x40;
        let (_, tail) = decode_wal(&flipped);
        assert_eq!(
            tail,
            Some(WalTail {
                offset: boundaries[5],
                reason: WalTailReason::ChecksumMismatch
            })
        );
    }

    #[test]
    fn gaps_and_disabled_wal() {
        let mut store = Store::new();
        store.put(b"/a", b"1").unwrap();
        store.put(b"/a", b"2").unwrap();
        let wal = store.take_wal();
        let (records, _) = decode_wal(&wal);
        let mut other = Store::new();
        assert_eq!(
            other.apply_wal_record(&records[1]).unwrap_err().code(),
            "E_CORRUPT_WAL"
        );
        assert_eq!(other.current_revision(), 1);
        let mut quiet = Store::with_options(StoreOptions {
            wal: false,
            ..StoreOptions::default()
        });
        quiet.put(b"/a", b"1").unwrap();
        assert!(quiet.take_wal().is_empty());
    }
}

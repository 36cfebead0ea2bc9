//! Snapshot + WAL replay reproduces the store exactly, and a torn or corrupted WAL tail is
//! found at its offset, with everything before it applied.

// Inside proptest! blocks clippy does not see a test: a failing unwrap is a failing test
// (clippy.toml allows it in tests).
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use kubewasm_store::*;
use proptest::prelude::*;

/// Runs `ops`, snapshotting after `cut` of them; returns the store, the snapshot, the WAL
/// written before it and the WAL written after it.
fn workload(ops: &[Op], cut: usize) -> (Store, Vec<u8>, Vec<u8>, Vec<u8>) {
    let mut store = Store::new();
    let mut now = 0;
    let mut before = Vec::new();
    let mut snapshot = Store::new().snapshot();
    for (i, op) in ops.iter().enumerate() {
        if i == cut {
            store.drain_wal_into(&mut before);
            snapshot = store.snapshot();
        }
        run(&mut store, op, &mut now);
    }
    if cut >= ops.len() {
        store.drain_wal_into(&mut before);
        snapshot = store.snapshot();
    }
    let after = store.take_wal();
    (store, snapshot, before, after)
}

/// Start offsets of each record, plus the end.
fn boundaries(wal: &[u8]) -> Vec<usize> {
    let mut out = vec![0];
    let mut at = 0;
    while at + 8 <= wal.len() {
        let len = u32::from_le_bytes(wal[at..at + 4].try_into().unwrap()) as usize;
        at += 8 + len;
        out.push(at);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn snapshot_plus_wal_replays_to_an_identical_store(ops in proptest::collection::vec(op(), 1..80), cut in 0usize..80) {
        let (store, snapshot, before, after) = workload(&ops, cut);
        let expected = store.snapshot();

        let mut restored = Store::restore(&snapshot).unwrap();
        let replay = restored.replay_wal(&after);
        prop_assert_eq!(replay.tail, None);
        prop_assert_eq!(replay.valid_len, after.len());
        prop_assert_eq!(restored.snapshot(), expected.clone());
        prop_assert_eq!(full_view(&restored), full_view(&store));

        // The whole WAL from scratch gives the same store, and replaying the old part on top
        // of the snapshot is skipped record by record.
        let mut from_scratch = Store::new();
        let mut all = before.clone();
        all.extend_from_slice(&after);
        prop_assert_eq!(from_scratch.replay_wal(&all).tail, None);
        prop_assert_eq!(from_scratch.snapshot(), expected.clone());
        let mut on_snapshot = Store::restore(&snapshot).unwrap();
        let replay = on_snapshot.replay_wal(&all);
        prop_assert_eq!(replay.skipped, decode_wal(&before).0.len());
        prop_assert_eq!(on_snapshot.snapshot(), expected);
    }

    #[test]
    fn a_damaged_tail_is_reported_at_its_offset(ops in proptest::collection::vec(op(), 1..60), cut_at in any::<prop::sample::Index>(), flip in any::<bool>(), bit in 0u8..8) {
        let (_, _, wal, _) = workload(&ops, usize::MAX);
        prop_assume!(!wal.is_empty());
        let bounds = boundaries(&wal);
        let cut = cut_at.index(wal.len());
        let mut damaged = wal[..cut].to_vec();
        if flip && cut > 0 {
            damaged = wal.clone();
            damaged[cut] ^= 1 << bit;
        }
        // The record holding the damaged byte (or the cut) starts at the last boundary ≤ cut.
        let bad = *bounds.iter().rev().find(|&&b| b <= cut).unwrap();
        let mut store = Store::new();
        let replay = store.replay_wal(&damaged);
        let good = bounds.iter().position(|&b| b == bad).unwrap();
        if bad == damaged.len() {
            prop_assert_eq!(replay.tail, None);
        } else {
            let tail = replay.tail.unwrap();
            prop_assert_eq!(tail.offset, bad);
            prop_assert_eq!(replay.valid_len, bad);
        }
        prop_assert_eq!(replay.applied, good);
        // What was applied is exactly the intact prefix.
        let mut prefix = Store::new();
        prop_assert_eq!(prefix.replay_wal(&wal[..bad]).tail, None);
        prop_assert_eq!(store.snapshot(), prefix.snapshot());
    }

    #[test]
    fn decoders_never_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = decode_wal(&bytes);
        let _ = Store::new().replay_wal(&bytes);
        let _ = Store::restore(&bytes);
        let _ = decode_watch_responses(&bytes);
        let _ = decode_range_response(&bytes);
    }
}

#[test]
fn a_crc_valid_but_inapplicable_record_is_rejected_at_its_offset() {
    let mut store = Store::new();
    store.put(b"/a", b"1").unwrap();
    let first = store.take_wal();
    store.put(b"/a", b"2").unwrap();
    let second = store.take_wal();
    // The second record alone skips a sequence number: rejected, nothing applied.
    let mut fresh = Store::new();
    let replay = fresh.replay_wal(&second);
    assert_eq!(
        replay.tail,
        Some(WalTail {
            offset: 0,
            reason: WalTailReason::Rejected
        })
    );
    assert_eq!(fresh.current_revision(), 1);
    let mut both = first.clone();
    both.extend_from_slice(&second);
    let mut fresh = Store::new();
    assert_eq!(fresh.replay_wal(&both).applied, 2);
    assert_eq!(fresh.snapshot(), store.snapshot());
}

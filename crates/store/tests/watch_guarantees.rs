//! etcd's watch guarantees (`W learning/api_guarantees.md`, store.md §4.1) checked over random
//! workloads with slow consumers (tiny buffers, rare small polls), compactions, cancels and
//! resumes: ordered, unique, reliable, atomic, resumable, bookmarkable, plus correct `prev_kv`
//! and creation flags. Expected events come from the reference model's flat history.

// Inside proptest! blocks clippy does not see a test: a failing unwrap is a failing test
// (clippy.toml allows it in tests).
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashMap;

use common::*;
use kubewasm_store::*;
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum WOp {
    Store(Op),
    Watch {
        k: u8,
        e: Option<u8>,
        back: i8,
        prev_kv: bool,
        no_put: bool,
        no_delete: bool,
        progress: bool,
    },
    Poll {
        max: u8,
        /// Through the shared wire encoding (`poll_watch_batch`) and its decoder.
        wire: bool,
    },
    RequestProgress,
    Tick,
    Cancel {
        pick: u8,
    },
    Resume {
        pick: u8,
    },
}

fn wop() -> impl Strategy<Value = WOp> {
    prop_oneof![
        12 => op().prop_map(WOp::Store),
        2 => (0..KEYS, proptest::option::of(0..=KEYS), -2i8..8, any::<bool>(), proptest::bool::weighted(0.15), proptest::bool::weighted(0.15), any::<bool>())
            .prop_map(|(k, e, back, prev_kv, no_put, no_delete, progress)| WOp::Watch { k, e, back, prev_kv, no_put, no_delete, progress }),
        3 => (0u8..4, any::<bool>()).prop_map(|(max, wire)| WOp::Poll { max, wire }),
        1 => Just(WOp::RequestProgress),
        1 => Just(WOp::Tick),
        1 => any::<u8>().prop_map(|pick| WOp::Cancel { pick }),
        1 => any::<u8>().prop_map(|pick| WOp::Resume { pick }),
    ]
}

/// One client-side watch, possibly carried over several watch ids by resuming.
#[derive(Debug)]
struct Logical {
    key: Vec<u8>,
    end: Vec<u8>,
    start: i64,
    prev_kv: bool,
    no_put: bool,
    no_delete: bool,
    id: WatchId,
    delivered: Vec<Event>,
    /// The response index (global) that carried the last delivered revision.
    last_response: usize,
    compacted: Option<i64>,
    closed: bool,
}

impl Logical {
    fn active(&self) -> bool {
        !self.closed && self.compacted.is_none()
    }
    fn last_rev(&self) -> i64 {
        self.delivered.last().map_or(0, |e| e.kv.mod_revision)
    }
    fn expected(&self, model: &Model) -> Vec<Event> {
        model
            .events(
                &self.key,
                &self.end,
                self.start,
                self.no_put,
                self.no_delete,
            )
            .into_iter()
            .map(|(_, e)| e)
            .collect()
    }
}

struct Checker {
    logicals: Vec<Logical>,
    by_id: HashMap<WatchId, usize>,
    retired: Vec<WatchId>,
    responses: usize,
}

impl Checker {
    fn absorb(&mut self, out: Vec<WatchResponse>, model: &Model) -> Result<(), TestCaseError> {
        for r in out {
            self.responses += 1;
            let index = self.responses;
            if r.watch_id == PROGRESS_WATCH_ID {
                // Bookmarkable (stream-wide): every active watch has everything up to r.revision.
                for l in self.logicals.iter().filter(|l| l.active()) {
                    let want = l
                        .expected(model)
                        .into_iter()
                        .filter(|e| e.kv.mod_revision <= r.revision)
                        .count();
                    let have = l
                        .delivered
                        .iter()
                        .filter(|e| e.kv.mod_revision <= r.revision)
                        .count();
                    prop_assert_eq!(
                        have,
                        want,
                        "stream progress at {} before all events",
                        r.revision
                    );
                }
                continue;
            }
            if self.retired.contains(&r.watch_id) {
                prop_assert!(r.events.is_empty(), "a cancelled watch delivered events");
                continue;
            }
            let Some(&li) = self.by_id.get(&r.watch_id) else {
                return Err(TestCaseError::fail(format!(
                    "response for unknown watch {}",
                    r.watch_id
                )));
            };
            let l = &mut self.logicals[li];
            if r.created || (r.canceled && r.compact_revision == 0) {
                continue;
            }
            if r.canceled {
                // Compacted: the watcher needed history before the compaction point.
                prop_assert!(
                    r.compact_revision > l.last_rev(),
                    "cancelled although caught up"
                );
                prop_assert!(r.cancel_reason.is_empty());
                l.compacted = Some(r.compact_revision);
                continue;
            }
            if r.events.is_empty() {
                // Bookmarkable (per watch).
                let want = l
                    .expected(model)
                    .into_iter()
                    .filter(|e| e.kv.mod_revision <= r.revision)
                    .count();
                let have = l
                    .delivered
                    .iter()
                    .filter(|e| e.kv.mod_revision <= r.revision)
                    .count();
                prop_assert_eq!(have, want, "progress at {} before all events", r.revision);
                continue;
            }
            for e in &r.events {
                let rev = e.kv.mod_revision;
                // Ordered and atomic: revisions ascend, and a revision never spans responses.
                prop_assert!(rev >= l.last_rev(), "event went back in time");
                if rev == l.last_rev() {
                    prop_assert_eq!(
                        l.last_response,
                        index,
                        "revision {} split across responses",
                        rev
                    );
                }
                l.delivered.push(e.clone());
                l.last_response = index;
            }
        }
        Ok(())
    }
}

fn poll(store: &mut Store, max: usize, wire: bool) -> Vec<WatchResponse> {
    if wire {
        decode_watch_responses(&store.poll_watch_batch(max)).unwrap()
    } else {
        store.poll_watch_events(max)
    }
}

fn strip_prev(e: &Event) -> Event {
    Event {
        prev_kv: None,
        ..e.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn watches_keep_etcds_guarantees(buffer in 1usize..6, ops in proptest::collection::vec(wop(), 1..120)) {
        let mut store = Store::with_options(StoreOptions { watch_buffer_events: buffer, ..StoreOptions::default() });
        let mut model = Model::default();
        let (mut now_s, mut now_m) = (0i64, 0i64);
        let mut c = Checker { logicals: Vec::new(), by_id: HashMap::new(), retired: Vec::new(), responses: 0 };
        for op in &ops {
            match op {
                WOp::Store(op) => {
                    let got = run(&mut store, op, &mut now_s);
                    let want = run(&mut model, op, &mut now_m);
                    prop_assert_eq!(got, want);
                }
                WOp::Watch { k, e, back, prev_kv, no_put, no_delete, progress } => {
                    let start = if *back < 0 { 0 } else { (store.current_revision() - i64::from(*back) + 1).max(1) };
                    let request = WatchRequest {
                        key: key(*k), range_end: end(*e), start_revision: start, prev_kv: *prev_kv,
                        progress_notify: *progress, no_put: *no_put, no_delete: *no_delete, watch_id: 0,
                    };
                    let Ok(id) = store.watch(request.clone()) else {
                        prop_assert!(!request.range_end.is_empty() && request.range_end != [0] && request.key >= request.range_end);
                        continue;
                    };
                    let start = if start == 0 { store.current_revision() + 1 } else { start };
                    c.by_id.insert(id, c.logicals.len());
                    c.logicals.push(Logical {
                        key: request.key, end: request.range_end, start, prev_kv: *prev_kv, no_put: *no_put,
                        no_delete: *no_delete, id, delivered: Vec::new(), last_response: 0, compacted: None, closed: false,
                    });
                }
                WOp::Poll { max, wire } => {
                    let out = poll(&mut store, *max as usize, *wire);
                    c.absorb(out, &model)?;
                }
                WOp::RequestProgress => store.request_progress(),
                WOp::Tick => store.progress_tick(),
                WOp::Cancel { pick } | WOp::Resume { pick } => {
                    let active: Vec<usize> = (0..c.logicals.len()).filter(|&i| c.logicals[i].active()).collect();
                    if active.is_empty() { continue; }
                    let li = active[*pick as usize % active.len()];
                    let old = c.logicals[li].id;
                    store.cancel_watch(old).unwrap();
                    c.retired.push(old);
                    if matches!(op, WOp::Cancel { .. }) {
                        c.logicals[li].closed = true;
                        continue;
                    }
                    // Resumable: re-watch from the last delivered revision + 1.
                    let l = &c.logicals[li];
                    let start = if l.delivered.is_empty() { l.start } else { l.last_rev() + 1 };
                    let request = WatchRequest {
                        key: l.key.clone(), range_end: l.end.clone(), start_revision: start, prev_kv: l.prev_kv,
                        no_put: l.no_put, no_delete: l.no_delete, ..WatchRequest::default()
                    };
                    let id = store.watch(request).unwrap();
                    c.by_id.insert(id, li);
                    c.logicals[li].id = id;
                    c.logicals[li].last_response = usize::MAX;
                }
            }
        }
        // Drain: a consumer that finally keeps up gets everything.
        store.request_progress();
        for i in 0..10_000 {
            let out = poll(&mut store, 3, i % 2 == 0);
            if out.is_empty() && !store.has_watch_events() { break; }
            c.absorb(out, &model)?;
        }
        prop_assert!(!store.has_watch_events());
        for l in &c.logicals {
            let expected = l.expected(&model);
            let got: Vec<Event> = l.delivered.iter().map(strip_prev).collect();
            // Unique and reliable: exactly the expected sequence, or a prefix of it if the watch
            // was cancelled (by the client or by compaction).
            if l.active() {
                prop_assert_eq!(&got, &expected, "watch {:?}", l);
            } else {
                prop_assert!(got.len() <= expected.len() && got[..] == expected[..got.len()], "gap in {:?}", l);
            }
            for e in &l.delivered {
                let rev = e.kv.mod_revision;
                prop_assert_eq!(e.is_create(), e.kind == EventType::Put && model.kv_at(&e.kv.key, rev - 1).is_none());
                match &e.prev_kv {
                    Some(prev) => {
                        prop_assert!(l.prev_kv);
                        prop_assert_eq!(Some(prev.clone()), model.kv_at(&e.kv.key, rev - 1));
                    }
                    None if l.prev_kv => prop_assert!(model.kv_at(&e.kv.key, rev - 1).is_none() || store.compact_revision() >= rev),
                    None => {}
                }
            }
        }
    }
}

#[test]
fn a_slow_consumer_costs_bounded_memory_and_loses_nothing() {
    let mut store = Store::with_options(StoreOptions {
        watch_buffer_events: 16,
        ..StoreOptions::default()
    });
    let id = store
        .watch(WatchRequest {
            key: b"/".to_vec(),
            range_end: b"0".to_vec(),
            ..WatchRequest::default()
        })
        .unwrap();
    for i in 0..10_000 {
        store
            .put(format!("/k{}", i % 100).as_bytes(), b"v")
            .unwrap();
    }
    assert_eq!(store.watch_state(id), Some(WatchState::Victim));
    let mut seen = 0;
    let mut last = 0;
    loop {
        let out = store.poll_watch_events(16);
        if out.is_empty() {
            break;
        }
        for r in out {
            assert!(r.events.len() <= 16);
            for e in r.events {
                assert_eq!(e.kv.mod_revision, last.max(1) + 1);
                last = e.kv.mod_revision;
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 10_000);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The shared wire encoding decodes to exactly what `poll_watch_events` returns: same
    /// responses, same events, `prev_kv` only for the watches that asked for it.
    #[test]
    fn wire_polls_decode_to_the_same_responses(buffer in 1usize..6, ops in proptest::collection::vec(wop(), 1..120)) {
        let options = StoreOptions { watch_buffer_events: buffer, ..StoreOptions::default() };
        let (mut direct, mut wire) = (Store::with_options(options.clone()), Store::with_options(options));
        let (mut now_d, mut now_w) = (0i64, 0i64);
        let mut ids = Vec::new();
        for op in &ops {
            match op {
                WOp::Store(op) => {
                    prop_assert_eq!(run(&mut direct, op, &mut now_d), run(&mut wire, op, &mut now_w));
                }
                WOp::Watch { k, e, back, prev_kv, no_put, no_delete, progress } => {
                    let start = if *back < 0 { 0 } else { (direct.current_revision() - i64::from(*back) + 1).max(1) };
                    let request = WatchRequest {
                        key: key(*k), range_end: end(*e), start_revision: start, prev_kv: *prev_kv,
                        progress_notify: *progress, no_put: *no_put, no_delete: *no_delete, watch_id: 0,
                    };
                    let id = direct.watch(request.clone());
                    prop_assert_eq!(&id, &wire.watch(request));
                    ids.extend(id);
                }
                WOp::Poll { max, .. } => {
                    let want = direct.poll_watch_events(*max as usize);
                    let mut bytes = Vec::new();
                    let delivered = wire.poll_watch_batch_into(*max as usize, &mut bytes);
                    prop_assert_eq!(delivered, want.iter().map(|r| r.events.len()).sum::<usize>());
                    prop_assert_eq!(decode_watch_responses(&bytes), Some(want));
                }
                WOp::RequestProgress => {
                    direct.request_progress();
                    wire.request_progress();
                }
                WOp::Tick => {
                    direct.progress_tick();
                    wire.progress_tick();
                }
                WOp::Cancel { pick } | WOp::Resume { pick } => {
                    if ids.is_empty() { continue; }
                    let id = ids[*pick as usize % ids.len()];
                    prop_assert_eq!(direct.cancel_watch(id), wire.cancel_watch(id));
                }
            }
            prop_assert_eq!(direct.has_watch_events(), wire.has_watch_events());
        }
    }
}

#[test]
fn a_thousand_watchers_share_one_copy_of_each_revision() {
    let mut store = Store::new();
    let prefix = |prev_kv| WatchRequest {
        key: b"/registry/pods/".to_vec(),
        range_end: b"/registry/pods0".to_vec(),
        prev_kv,
        ..WatchRequest::default()
    };
    for i in 0..1000 {
        store.watch(prefix(i % 2 == 0)).unwrap();
    }
    store.poll_watch_events(0);
    for i in 0..100 {
        store
            .put(format!("/registry/pods/p{}", i % 10).as_bytes(), b"v")
            .unwrap();
    }
    let mut bytes = Vec::new();
    assert_eq!(store.poll_watch_batch_into(0, &mut bytes), 100_000);
    // One block of 100 events (each key and value once), then 1000 deliveries of ~22 bytes.
    assert_eq!(&bytes[..4], &1u32.to_le_bytes());
    assert!(bytes.len() < 100 * 200 + 1000 * 24, "{} bytes", bytes.len());
    let out = decode_watch_responses(&bytes).unwrap();
    assert_eq!(out.len(), 1000);
    for r in &out {
        assert_eq!(r.events.len(), 100);
        let has_prev = r.events.iter().any(|e| e.prev_kv.is_some());
        assert_eq!(has_prev, r.watch_id % 2 == 0, "prev_kv only where asked");
    }
    assert!(!store.has_watch_events());
}

#[test]
fn a_thousand_watchers_from_history_share_their_catch_up() {
    let mut store = Store::new();
    for i in 0..100 {
        store
            .put(format!("/registry/pods/p{}", i % 10).as_bytes(), b"v")
            .unwrap();
    }
    for _ in 0..1000 {
        store
            .watch(WatchRequest {
                key: b"/registry/pods/".to_vec(),
                range_end: b"/registry/pods0".to_vec(),
                start_revision: 2,
                prev_kv: true,
                ..WatchRequest::default()
            })
            .unwrap();
    }
    let mut bytes = Vec::new();
    assert_eq!(store.poll_watch_batch_into(0, &mut bytes), 100_000);
    assert_eq!(&bytes[..4], &1u32.to_le_bytes(), "one block for all");
    let out = decode_watch_responses(&bytes).unwrap();
    assert_eq!(out.len(), 2000, "created, then the catch-up");
    assert!(out
        .iter()
        .filter(|r| !r.created)
        .all(|r| r.events.len() == 100 && r.events[99].prev_kv.is_some()));
    // Caught up: the next revision goes through the live feed.
    store.put(b"/registry/pods/p0", b"w").unwrap();
    assert_eq!(store.poll_watch_batch_into(0, &mut bytes), 1000);
}

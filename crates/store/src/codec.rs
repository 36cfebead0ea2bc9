//! A compact binary encoding of watch polls and key-value lists, so the wasm binding hands
//! JavaScript one `Uint8Array` per batch instead of one object per event.
//!
//! A watch poll is a table of event blocks, each encoded once, and a list of deliveries that
//! point into it: when a thousand watchers get the same revisions they share one block (and the
//! decoder one array of events). A block is a run of whole revisions in order; a delivery takes
//! all of it, a contiguous part of it (a watcher that started later or stopped earlier in the
//! same feed) or an explicit list of its events (a watcher with NOPUT / NODELETE filters). A
//! block carries `prev_kv` when any of its deliveries asked for it; flag 32 tells the decoder
//! to drop it for a delivery that did not.
//!
//! Byte layout (all integers little-endian; `bytes` = `len u32` then `len` bytes):
//! ```text
//! watch poll  := n_blocks u32 | n_blocks × block | n_deliveries u32 | n_deliveries × delivery
//! block       := revision i64 (its last event's) | n_events u32 | n_events × event
//! event       := type u8 (0 = PUT, 1 = DELETE) | has_prev u8 (0 or 1) | kv | [kv if has_prev]
//! kv          := key bytes | create_revision i64 | mod_revision i64 | version i64 | lease i64
//!                | value bytes
//! delivery    := watch_id i64 | revision i64 (header) | flags u8
//!                | [compact_revision i64  if flags & 4]
//!                | [cancel_reason bytes   if flags & 8]   (UTF-8)
//!                | [block u32 | selection if flags & 16]
//! flags       := 1 created | 2 canceled | 4 compact_revision | 8 cancel_reason | 16 events
//!                | 32 drop prev_kv | 64 progress notification (no events, nothing else set)
//! selection   := 0 u8                                    all events of the block
//!              | 1 u8 | first u32 | count u32            events first .. first + count
//!              | 2 u8 | count u32 | count × index u32    these events, ascending
//! kv list     := count u32 | more u8 | total u64 | revision i64 | count × kv
//! ```
//! 64-bit revisions stay 64-bit (read them as `BigInt` with `DataView.getBigInt64(o, true)`).
//! Deliveries of one watch are in order; a watch's events never repeat across its deliveries.

use std::collections::HashMap;
use std::rc::Rc;

use crate::feed::{FeedRun, Group, Planned};
use crate::{Event, EventType, KeyValue, RangeResponse, WatchResponse};

const FLAG_CREATED: u8 = 1;
const FLAG_CANCELED: u8 = 2;
const FLAG_COMPACT: u8 = 4;
const FLAG_REASON: u8 = 8;
const FLAG_EVENTS: u8 = 16;
const FLAG_DROP_PREV: u8 = 32;
const FLAG_PROGRESS: u8 = 64;

const SELECT_ALL: u8 = 0;
const SELECT_RUN: u8 = 1;
const SELECT_LIST: u8 = 2;

/// Blocks of one group considered for reuse by a contained run (a poll has one or two runs per
/// group in the common case; the bound keeps a pathological poll linear).
const REUSE_CANDIDATES: usize = 8;

fn put_u32(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(&(n as u32).to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_u32(out, bytes.len());
    out.extend_from_slice(bytes);
}

fn put_kv(out: &mut Vec<u8>, kv: &KeyValue) {
    put_bytes(out, &kv.key);
    for n in [kv.create_revision, kv.mod_revision, kv.version, kv.lease] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    put_bytes(out, &kv.value);
}

fn put_event(out: &mut Vec<u8>, e: &Event, with_prev: bool) {
    out.push(match e.kind {
        EventType::Put => 0,
        EventType::Delete => 1,
    });
    let prev = e.prev_kv.as_ref().filter(|_| with_prev);
    out.push(u8::from(prev.is_some()));
    put_kv(out, &e.kv);
    if let Some(prev) = prev {
        put_kv(out, prev);
    }
}

/// Which events of a block a delivery takes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Selection {
    All,
    Run { first: u32, count: u32 },
    List(Vec<u32>),
}

/// Where a block's events come from.
#[derive(Clone, Copy)]
enum Source<'a> {
    Feed {
        group: &'a Group,
        from: u64,
        to: u64,
    },
    Own(&'a [Event]),
}

struct Block<'a> {
    source: Source<'a>,
    with_prev: bool,
}

impl Block<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        match self.source {
            Source::Feed { group, from, to } => {
                let revision = group
                    .entry(to.saturating_sub(1))
                    .map_or(0, |e| e.block.revision);
                out.extend_from_slice(&revision.to_le_bytes());
                put_u32(
                    out,
                    (group.events_before(to) - group.events_before(from)) as usize,
                );
                for entry in group.entries(from, to) {
                    for e in entry.events() {
                        put_event(out, e, self.with_prev);
                    }
                }
            }
            Source::Own(events) => {
                let revision = events.last().map_or(0, |e| e.kv.mod_revision);
                out.extend_from_slice(&revision.to_le_bytes());
                put_u32(out, events.len());
                for e in events {
                    put_event(out, e, self.with_prev);
                }
            }
        }
    }
}

fn put_delivery(out: &mut Vec<u8>, r: &WatchResponse, events: Option<(u32, &Selection, bool)>) {
    out.extend_from_slice(&r.watch_id.to_le_bytes());
    out.extend_from_slice(&r.revision.to_le_bytes());
    let mut flags = 0;
    for (set, flag) in [
        (r.created, FLAG_CREATED),
        (r.canceled, FLAG_CANCELED),
        (r.compact_revision != 0, FLAG_COMPACT),
        (!r.cancel_reason.is_empty(), FLAG_REASON),
        (events.is_some(), FLAG_EVENTS),
        (
            events.is_some_and(|(_, _, drop_prev)| drop_prev),
            FLAG_DROP_PREV,
        ),
        (events.is_none() && r.is_progress_notify(), FLAG_PROGRESS),
    ] {
        if set {
            flags |= flag;
        }
    }
    out.push(flags);
    if r.compact_revision != 0 {
        out.extend_from_slice(&r.compact_revision.to_le_bytes());
    }
    if !r.cancel_reason.is_empty() {
        put_bytes(out, r.cancel_reason.as_bytes());
    }
    if let Some((block, selection, _)) = events {
        out.extend_from_slice(&block.to_le_bytes());
        match selection {
            Selection::All => out.push(SELECT_ALL),
            Selection::Run { first, count } => {
                out.push(SELECT_RUN);
                out.extend_from_slice(&first.to_le_bytes());
                out.extend_from_slice(&count.to_le_bytes());
            }
            Selection::List(indices) => {
                out.push(SELECT_LIST);
                put_u32(out, indices.len());
                for i in indices {
                    out.extend_from_slice(&i.to_le_bytes());
                }
            }
        }
    }
}

/// The block (and offset in it) serving each distinct feed run of a plan: a run contained in
/// a longer run of the same group reuses that run's block.
fn feed_blocks<'a>(
    groups: &'a [Group],
    plan: &[Planned],
    blocks: &mut Vec<Block<'a>>,
) -> HashMap<(u32, u64, u64), (u32, u64)> {
    let mut runs: Vec<(u32, u64, u64)> = plan
        .iter()
        .filter_map(|p| match p {
            Planned::Feed(run) => Some((run.group, run.from, run.to)),
            Planned::Response(..) => None,
        })
        .collect();
    runs.sort_unstable_by_key(|&(group, from, to)| (group, std::cmp::Reverse(to - from), from));
    runs.dedup();
    let mut served = HashMap::with_capacity(runs.len());
    let mut of_group: Vec<(u64, u64, u32)> = Vec::new();
    let mut current_group = None;
    for (g, from, to) in runs {
        let Some(group) = groups.get(g as usize) else {
            continue;
        };
        if current_group != Some(g) {
            current_group = Some(g);
            of_group.clear();
        }
        let container = of_group
            .iter()
            .take(REUSE_CANDIDATES)
            .find(|&&(f, t, _)| f <= from && to <= t);
        let (block, block_from) = match container {
            Some(&(f, _, block)) => (block, f),
            None => {
                let block = blocks.len() as u32;
                blocks.push(Block {
                    source: Source::Feed { group, from, to },
                    with_prev: false,
                });
                of_group.push((from, to, block));
                (block, from)
            }
        };
        let offset = group.events_before(from) - group.events_before(block_from);
        served.insert((g, from, to), (block, offset));
    }
    served
}

/// The events of `run` a filtered watcher takes, as indices into a block starting `offset`
/// events before the run.
fn filtered_indices(group: &Group, run: &FeedRun, offset: u64) -> Vec<u32> {
    let mut indices = Vec::with_capacity(run.events);
    let mut index = offset as u32;
    for entry in group.entries(run.from, run.to) {
        for e in entry.events() {
            if run.wants(e) {
                indices.push(index);
            }
            index += 1;
        }
    }
    indices
}

/// Encodes a poll plan; returns the events delivered (an event delivered to n watchers counts
/// n times).
pub(crate) fn encode_poll(groups: &[Group], plan: &[Planned], out: &mut Vec<u8>) -> usize {
    let mut blocks = Vec::new();
    let served = feed_blocks(groups, plan, &mut blocks);
    // Catch-up batches shared by several watchers: one block each.
    let mut shared: HashMap<*const Vec<Event>, u32> = HashMap::new();
    let mut deliveries: Vec<(&Planned, Option<(u32, Selection)>)> = Vec::with_capacity(plan.len());
    let mut delivered = 0;
    for planned in plan {
        let events = match planned {
            Planned::Response(_, Some(events)) => {
                let block = *shared.entry(Rc::as_ptr(events)).or_insert_with(|| {
                    blocks.push(Block {
                        source: Source::Own(events),
                        with_prev: true,
                    });
                    (blocks.len() - 1) as u32
                });
                delivered += events.len();
                Some((block, Selection::All))
            }
            Planned::Response(r, None) if r.events.is_empty() => None,
            Planned::Response(r, None) => {
                blocks.push(Block {
                    source: Source::Own(&r.events),
                    with_prev: true,
                });
                delivered += r.events.len();
                Some(((blocks.len() - 1) as u32, Selection::All))
            }
            Planned::Feed(run) => {
                let (Some(&(block, offset)), Some(group)) = (
                    served.get(&(run.group, run.from, run.to)),
                    groups.get(run.group as usize),
                ) else {
                    continue; // every run was served above
                };
                let Some(b) = blocks.get_mut(block as usize) else {
                    continue;
                };
                b.with_prev |= run.prev_kv;
                let whole = match b.source {
                    Source::Feed { from, to, .. } => (from, to) == (run.from, run.to),
                    Source::Own(_) => false,
                };
                delivered += run.events;
                let selection = if run.filtered() {
                    Selection::List(filtered_indices(group, run, offset))
                } else if whole {
                    Selection::All
                } else {
                    Selection::Run {
                        first: offset as u32,
                        count: run.events as u32,
                    }
                };
                Some((block, selection))
            }
        };
        deliveries.push((planned, events));
    }
    put_u32(out, blocks.len());
    for block in &blocks {
        block.write(out);
    }
    put_u32(out, deliveries.len());
    let mut scratch = WatchResponse::default();
    for (planned, events) in &deliveries {
        let events = events.as_ref().map(|(block, selection)| {
            let with_prev = blocks.get(*block as usize).is_some_and(|b| b.with_prev);
            let wants_prev = match planned {
                Planned::Feed(run) => run.prev_kv,
                Planned::Response(..) => true,
            };
            (*block, selection, with_prev && !wants_prev)
        });
        let response = match planned {
            Planned::Response(r, _) => r,
            Planned::Feed(run) => {
                scratch.watch_id = run.watch_id;
                scratch.revision = run.revision;
                &scratch
            }
        };
        put_delivery(out, response, events);
    }
    delivered
}

/// Encodes watch responses in the watch poll layout, each response's events as a block of its
/// own (`Store::poll_watch_batch` shares blocks between watchers; this does not).
pub fn encode_watch_responses(responses: &[WatchResponse]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_watch_responses_into(responses, &mut out);
    out
}

/// As `encode_watch_responses`, appending to `out`.
pub fn encode_watch_responses_into(responses: &[WatchResponse], out: &mut Vec<u8>) {
    let with_events = responses.iter().filter(|r| !r.events.is_empty());
    put_u32(out, with_events.clone().count());
    for r in with_events {
        Block {
            source: Source::Own(&r.events),
            with_prev: true,
        }
        .write(out);
    }
    put_u32(out, responses.len());
    let mut block = 0u32;
    for r in responses {
        let events = (!r.events.is_empty()).then(|| {
            block += 1;
            (block - 1, &Selection::All, false)
        });
        put_delivery(out, r, events);
    }
}

/// Encodes a range result's key-values with its `more`, `count` and header revision.
pub fn encode_range_response(response: &RangeResponse) -> Vec<u8> {
    let mut out = Vec::new();
    put_u32(&mut out, response.kvs.len());
    out.push(u8::from(response.more));
    out.extend_from_slice(&(response.count as u64).to_le_bytes());
    out.extend_from_slice(&response.revision.to_le_bytes());
    for kv in &response.kvs {
        put_kv(&mut out, kv);
    }
    out
}

/// Decodes a watch poll (`Store::poll_watch_batch`, `encode_watch_responses`) into one response
/// per delivery, each with its own copy of its events; `None` if the bytes are malformed.
pub fn decode_watch_responses(bytes: &[u8]) -> Option<Vec<WatchResponse>> {
    let mut r = Reader::new(bytes);
    let n_blocks = r.u32()? as usize;
    let mut blocks = Vec::with_capacity(n_blocks.min(r.remaining()));
    for _ in 0..n_blocks {
        let _revision = r.i64()?;
        let n = r.u32()? as usize;
        let mut events = Vec::with_capacity(n.min(r.remaining()));
        for _ in 0..n {
            events.push(read_event(&mut r)?);
        }
        blocks.push(events);
    }
    let count = r.u32()? as usize;
    let mut responses = Vec::with_capacity(count.min(r.remaining()));
    for _ in 0..count {
        let watch_id = r.i64()?;
        let revision = r.i64()?;
        let flags = r.u8()?;
        let compact_revision = if flags & FLAG_COMPACT != 0 {
            r.i64()?
        } else {
            0
        };
        let cancel_reason = if flags & FLAG_REASON != 0 {
            String::from_utf8(r.bytes()?.to_vec()).ok()?
        } else {
            String::new()
        };
        let mut events: Vec<Event> = Vec::new();
        if flags & FLAG_EVENTS != 0 {
            let block: &Vec<Event> = blocks.get(r.u32()? as usize)?;
            match r.u8()? {
                SELECT_ALL => events.extend_from_slice(block),
                SELECT_RUN => {
                    let first = r.u32()? as usize;
                    let count = r.u32()? as usize;
                    events.extend_from_slice(block.get(first..first.checked_add(count)?)?);
                }
                SELECT_LIST => {
                    for _ in 0..r.u32()? {
                        events.push(block.get(r.u32()? as usize)?.clone());
                    }
                }
                _ => return None,
            }
            if flags & FLAG_DROP_PREV != 0 {
                for e in &mut events {
                    e.prev_kv = None;
                }
            }
        }
        responses.push(WatchResponse {
            watch_id,
            revision,
            created: flags & FLAG_CREATED != 0,
            canceled: flags & FLAG_CANCELED != 0,
            compact_revision,
            cancel_reason,
            events,
        });
    }
    r.is_empty().then_some(responses)
}

fn read_event(r: &mut Reader<'_>) -> Option<Event> {
    let kind = match r.u8()? {
        0 => EventType::Put,
        1 => EventType::Delete,
        _ => return None,
    };
    let has_prev = r.u8()?;
    let kv = read_kv(r)?;
    let prev_kv = match has_prev {
        0 => None,
        1 => Some(read_kv(r)?),
        _ => return None,
    };
    Some(Event { kind, kv, prev_kv })
}

/// Decodes `encode_range_response` output.
pub fn decode_range_response(bytes: &[u8]) -> Option<RangeResponse> {
    let mut r = Reader::new(bytes);
    let n = r.u32()? as usize;
    let more = r.u8()? != 0;
    let count = usize::try_from(r.u64()?).ok()?;
    let revision = r.i64()?;
    let mut kvs = Vec::with_capacity(n.min(r.remaining()));
    for _ in 0..n {
        kvs.push(read_kv(&mut r)?);
    }
    r.is_empty().then_some(RangeResponse {
        kvs,
        more,
        count,
        revision,
    })
}

fn read_kv(r: &mut Reader<'_>) -> Option<KeyValue> {
    Some(KeyValue {
        key: r.bytes()?.to_vec(),
        create_revision: r.i64()?,
        mod_revision: r.i64()?,
        version: r.i64()?,
        lease: r.i64()?,
        value: r.bytes()?.to_vec(),
    })
}

/// A bounds-checked little-endian reader over untrusted bytes: every read is `None` past the
/// end, never a panic.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    pub fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }
    pub fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.array()?))
    }
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    pub fn remaining(&self) -> usize {
        self.bytes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(key: &str, rev: i64) -> KeyValue {
        KeyValue {
            key: key.into(),
            create_revision: 2,
            mod_revision: rev,
            version: 3,
            value: b"v".to_vec(),
            lease: 9,
        }
    }

    #[test]
    fn watch_batches_round_trip() {
        let responses = vec![
            WatchResponse {
                watch_id: 0,
                revision: 1,
                created: true,
                ..WatchResponse::default()
            },
            WatchResponse {
                watch_id: 3,
                revision: 1 << 40,
                events: vec![
                    Event {
                        kind: EventType::Put,
                        kv: kv("/a", 5),
                        prev_kv: Some(kv("/a", 4)),
                    },
                    Event {
                        kind: EventType::Delete,
                        kv: KeyValue {
                            key: b"/b".to_vec(),
                            mod_revision: 5,
                            ..KeyValue::default()
                        },
                        prev_kv: None,
                    },
                ],
                ..WatchResponse::default()
            },
            WatchResponse {
                watch_id: 4,
                canceled: true,
                compact_revision: 7,
                cancel_reason: "why".into(),
                ..WatchResponse::default()
            },
        ];
        let bytes = encode_watch_responses(&responses);
        assert_eq!(decode_watch_responses(&bytes).as_ref(), Some(&responses));
        for cut in 0..bytes.len() {
            assert_eq!(
                decode_watch_responses(&bytes[..cut]),
                None,
                "truncated at {cut}"
            );
        }
        // One block (the second response's events) at its last revision.
        assert_eq!(&bytes[..4], &1u32.to_le_bytes());
        assert_eq!(&bytes[4..12], &5i64.to_le_bytes());
        // The first response alone, byte for byte.
        let created = encode_watch_responses(&responses[..1]);
        let mut want = vec![0, 0, 0, 0, 1, 0, 0, 0];
        want.extend_from_slice(&0i64.to_le_bytes());
        want.extend_from_slice(&1i64.to_le_bytes());
        want.push(FLAG_CREATED);
        assert_eq!(created, want);
    }

    /// `(block count, per delivery: (watch_id, flags, block, selection))` of a watch poll.
    fn shape(bytes: &[u8]) -> (usize, Vec<(i64, u8, u32, Selection)>) {
        let mut r = Reader::new(bytes);
        let n_blocks = r.u32().unwrap() as usize;
        for _ in 0..n_blocks {
            r.i64().unwrap();
            for _ in 0..r.u32().unwrap() {
                read_event(&mut r).unwrap();
            }
        }
        let mut deliveries = Vec::new();
        for _ in 0..r.u32().unwrap() {
            let (id, _revision, flags) = (r.i64().unwrap(), r.i64().unwrap(), r.u8().unwrap());
            assert_eq!(flags & (FLAG_COMPACT | FLAG_REASON), 0);
            if flags & FLAG_EVENTS == 0 {
                deliveries.push((id, flags, u32::MAX, Selection::All));
                continue;
            }
            let block = r.u32().unwrap();
            let selection = match r.u8().unwrap() {
                SELECT_ALL => Selection::All,
                SELECT_RUN => Selection::Run {
                    first: r.u32().unwrap(),
                    count: r.u32().unwrap(),
                },
                _ => Selection::List((0..r.u32().unwrap()).map(|_| r.u32().unwrap()).collect()),
            };
            deliveries.push((id, flags, block, selection));
        }
        assert!(r.is_empty());
        (n_blocks, deliveries)
    }

    #[test]
    fn a_poll_encodes_each_run_once_and_selects_from_it() {
        let mut store = crate::Store::new();
        let watch = |prev_kv, no_put| crate::WatchRequest {
            key: b"/k/".to_vec(),
            range_end: b"/k0".to_vec(),
            prev_kv,
            no_put,
            ..crate::WatchRequest::default()
        };
        let all = store.watch(watch(true, false)).unwrap();
        let deletes = store.watch(watch(true, true)).unwrap();
        store.put(b"/k/1", b"a").unwrap();
        store.put(b"/k/1", b"b").unwrap();
        let late = store.watch(watch(false, false)).unwrap();
        store.put(b"/k/1", b"c").unwrap();
        store.put(b"/other", b"x").unwrap();
        store
            .delete_range(&crate::DeleteRangeRequest {
                key: b"/k/1".to_vec(),
                ..Default::default()
            })
            .unwrap();
        let mut twin = crate::Store::new();
        twin.watch(watch(true, false)).unwrap();
        twin.watch(watch(true, true)).unwrap();
        twin.put(b"/k/1", b"a").unwrap();
        twin.put(b"/k/1", b"b").unwrap();
        twin.watch(watch(false, false)).unwrap();
        twin.put(b"/k/1", b"c").unwrap();
        twin.put(b"/other", b"x").unwrap();
        twin.delete_range(&crate::DeleteRangeRequest {
            key: b"/k/1".to_vec(),
            ..Default::default()
        })
        .unwrap();

        let mut bytes = Vec::new();
        assert_eq!(store.poll_watch_batch_into(0, &mut bytes), 4 + 1 + 2);
        let (blocks, deliveries) = shape(&bytes);
        assert_eq!(blocks, 1, "one block: the feed's four revisions");
        let feed: Vec<_> = deliveries
            .into_iter()
            .filter(|d| d.1 & FLAG_CREATED == 0)
            .collect();
        assert_eq!(
            feed,
            vec![
                (all, FLAG_EVENTS, 0, Selection::All),
                (deletes, FLAG_EVENTS, 0, Selection::List(vec![3])),
                (
                    late,
                    FLAG_EVENTS | FLAG_DROP_PREV,
                    0,
                    Selection::Run { first: 2, count: 2 }
                ),
            ]
        );
        let decoded = decode_watch_responses(&bytes).unwrap();
        assert_eq!(decoded, twin.poll_watch_events(0));
        let of = |id| {
            decoded
                .iter()
                .find(|r| r.watch_id == id && !r.created)
                .unwrap()
        };
        assert_eq!(of(all).revision, 6, "header: the run's last revision");
        assert!(of(all).events[1].prev_kv.is_some());
        assert!(of(late).events.iter().all(|e| e.prev_kv.is_none()));
        assert_eq!(of(deletes).events[0].kind, EventType::Delete);
        for cut in 0..bytes.len() {
            assert_eq!(decode_watch_responses(&bytes[..cut]), None, "cut at {cut}");
        }
        // Selections out of the block's bounds are refused, not a panic.
        let mut bad = Vec::new();
        bad.extend_from_slice(&0u32.to_le_bytes());
        bad.extend_from_slice(&1u32.to_le_bytes());
        bad.extend_from_slice(&[0; 16]);
        bad.push(FLAG_EVENTS);
        bad.extend_from_slice(&0u32.to_le_bytes());
        bad.push(SELECT_ALL);
        assert_eq!(decode_watch_responses(&bad), None, "no such block");
    }

    #[test]
    fn a_progress_notification_is_flagged() {
        let progress = WatchResponse {
            watch_id: -1,
            revision: 9,
            ..WatchResponse::default()
        };
        let bytes = encode_watch_responses(std::slice::from_ref(&progress));
        assert_eq!(bytes.last(), Some(&FLAG_PROGRESS));
        assert_eq!(decode_watch_responses(&bytes), Some(vec![progress]));
    }

    #[test]
    fn range_responses_round_trip() {
        let response = RangeResponse {
            kvs: vec![kv("/a", 4), kv("/b", 5)],
            more: true,
            count: 10,
            revision: 6,
        };
        let bytes = encode_range_response(&response);
        assert_eq!(decode_range_response(&bytes), Some(response));
        assert_eq!(decode_range_response(&bytes[..bytes.len() - 1]), None);
    }
}

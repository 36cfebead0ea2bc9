//! Watches, batch-oriented: `Store::watch` registers, every committed revision is queued to the
//! synced watchers as one response, and `Store::poll_watch_events` drains all watchers' pending
//! responses at once (no per-event callbacks across the wasm boundary).
//!
//! Backpressure follows etcd's `watchable_store.go`: a watcher is **synced** (gets live events),
//! **unsynced** (behind: catches up from history when polled) or a **victim** (its buffer was
//! full when a live batch came: that one batch is parked, it gets no more live events, and once
//! the batch fits it catches up from history like an unsynced watcher). Memory per watcher is
//! bounded by its buffer plus one parked batch; nothing is skipped; a watcher whose next
//! revision was compacted meanwhile is cancelled with `compact_revision`, so the client can
//! re-list.

use std::collections::{BTreeMap, VecDeque};

use crate::range::in_range;
use crate::view::KvView;
use crate::{Event, Store, StoreError};

pub type WatchId = i64;

/// Undelivered events a watcher may hold before it falls back to history. etcd bounds each
/// stream by `chanBufLen = 128` responses (watchable_store.go); we count events.
pub const DEFAULT_WATCH_BUFFER_EVENTS: usize = 1024;
/// `InvalidWatchID` (etcd client/v3/watch.go): the id of a stream-wide progress notification.
pub const PROGRESS_WATCH_ID: WatchId = -1;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchRequest {
    pub key: Vec<u8>,
    /// etcd's range conventions; `"\0"` watches every key ≥ `key`.
    pub range_end: Vec<u8>,
    /// First revision to report, inclusive; 0 means "from the next revision".
    pub start_revision: i64,
    pub prev_kv: bool,
    /// Receive empty progress responses from `Store::progress_tick`.
    pub progress_notify: bool,
    /// Filters: drop PUT or DELETE events.
    pub no_put: bool,
    pub no_delete: bool,
    /// 0 lets the store pick (etcd's `AutoWatchID`).
    pub watch_id: WatchId,
}

/// etcd's `WatchResponse`, without the fragment flag (responses are never split).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchResponse {
    pub watch_id: WatchId,
    /// The header revision: the batch's revision for live events, else the current revision.
    pub revision: i64,
    pub created: bool,
    pub canceled: bool,
    /// Set (with `canceled`) when history the watcher needed was compacted.
    pub compact_revision: i64,
    /// Empty for a compaction cancel, as etcd leaves it.
    pub cancel_reason: String,
    pub events: Vec<Event>,
}

impl WatchResponse {
    /// True for an empty progress notification (bookmark).
    pub fn is_progress_notify(&self) -> bool {
        self.events.is_empty() && !self.created && !self.canceled && self.compact_revision == 0
    }
}

/// Where a watcher stands (etcd's watcher groups).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchState {
    Synced,
    Unsynced,
    Victim,
    /// Cancelled; its last response is waiting to be polled.
    Closing,
}

#[derive(Debug)]
struct Watcher {
    key: Vec<u8>,
    range_end: Vec<u8>,
    prev_kv: bool,
    progress_notify: bool,
    no_put: bool,
    no_delete: bool,
    state: WatchState,
    /// The next revision this watcher has not been given.
    min_rev: i64,
    queue: VecDeque<WatchResponse>,
    queued_events: usize,
    victim: Option<WatchResponse>,
    /// Events were queued since the last progress tick (etcd elides the next progress update).
    sent_since_tick: bool,
}

impl Watcher {
    fn matches(&self, event_key: &[u8], tombstone: bool) -> bool {
        in_range(&self.key, &self.range_end, event_key)
            && !(tombstone && self.no_delete)
            && (tombstone || !self.no_put)
    }

    fn fits(&self, events: usize, capacity: usize) -> bool {
        self.queued_events == 0 || self.queued_events + events <= capacity
    }

    fn push(&mut self, response: WatchResponse) {
        self.queued_events += response.events.len();
        if !response.events.is_empty() {
            self.sent_since_tick = true;
        }
        self.queue.push_back(response);
    }

    /// The events of revision-ordered log positions `[from, to)` this watcher wants.
    fn events(&self, view: &KvView<'_>, from: u32, to: u32) -> Vec<Event> {
        let mut events = Vec::new();
        for position in from..to {
            let Some(change) = view.history.get(position) else {
                break;
            };
            let Some(slot) = view.slots.get(change.slot as usize) else {
                continue;
            };
            if self.matches(&slot.key, change.is_tombstone()) {
                if let Some(event) = view.event_at(position, self.prev_kv) {
                    events.push(event);
                }
            }
        }
        events
    }
}

#[derive(Debug)]
pub(crate) struct Watchers {
    map: BTreeMap<WatchId, Watcher>,
    next_id: WatchId,
    capacity: usize,
    progress_requested: bool,
    /// Round-robin start for fair draining.
    cursor: WatchId,
}

impl Watchers {
    pub fn new(capacity: usize) -> Self {
        Watchers {
            map: BTreeMap::new(),
            next_id: 0,
            capacity: capacity.max(1),
            progress_requested: false,
            cursor: 0,
        }
    }
}

impl Store {
    /// Starts watching `[key, range_end)` from `start_revision`; its `created` response is the
    /// first the watcher polls. A start at or below the compaction point ends in a cancel with
    /// `compact_revision`; a negative start is refused with `E_COMPACTED` (etcd answers
    /// `created` + `canceled` with that reason).
    pub fn watch(&mut self, request: WatchRequest) -> Result<WatchId, StoreError> {
        if !request.range_end.is_empty()
            && request.range_end != [0]
            && request.key >= request.range_end
        {
            return Err(StoreError::EmptyWatcherRange);
        }
        if request.start_revision < 0 {
            return Err(StoreError::Compacted {
                compact_revision: self.compact_revision,
            });
        }
        let watchers = &mut self.watchers;
        let id = if request.watch_id > 0 {
            if watchers.map.contains_key(&request.watch_id) {
                return Err(StoreError::DuplicateWatchId);
            }
            request.watch_id
        } else {
            while watchers.map.contains_key(&watchers.next_id) {
                watchers.next_id += 1;
            }
            watchers.next_id += 1;
            watchers.next_id - 1
        };
        let start = if request.start_revision == 0 {
            self.current_revision + 1
        } else {
            request.start_revision
        };
        let mut watcher = Watcher {
            key: request.key,
            range_end: request.range_end,
            prev_kv: request.prev_kv,
            progress_notify: request.progress_notify,
            no_put: request.no_put,
            no_delete: request.no_delete,
            state: if start > self.current_revision {
                WatchState::Synced
            } else {
                WatchState::Unsynced
            },
            min_rev: start,
            queue: VecDeque::new(),
            queued_events: 0,
            victim: None,
            sent_since_tick: false,
        };
        watcher.push(WatchResponse {
            watch_id: id,
            revision: self.current_revision,
            created: true,
            ..WatchResponse::default()
        });
        watchers.map.insert(id, watcher);
        Ok(id)
    }

    /// Cancels a watch: its undelivered events are dropped and a `canceled` response is queued.
    pub fn cancel_watch(&mut self, id: WatchId) -> Result<(), StoreError> {
        let watcher = match self.watchers.map.get_mut(&id) {
            Some(w) if w.state != WatchState::Closing => w,
            _ => return Err(StoreError::WatcherNotExist),
        };
        watcher.queue.clear();
        watcher.queued_events = 0;
        watcher.victim = None;
        watcher.state = WatchState::Closing;
        watcher.push(WatchResponse {
            watch_id: id,
            revision: self.current_revision,
            canceled: true,
            ..WatchResponse::default()
        });
        Ok(())
    }

    /// etcd's `WatchProgressRequest`: one response with `watch_id` -1 at the current revision,
    /// sent by a poll once every watcher is synced and drained, so that it proves all events up
    /// to its revision were delivered (etcd sends nothing while unsynced; we hold it instead).
    pub fn request_progress(&mut self) {
        self.watchers.progress_requested = true;
    }

    /// The periodic progress notification: each synced watcher that asked for
    /// `progress_notify` and got no events since the last tick is sent an empty response at
    /// the current revision (etcd's ticker, `progressReportInterval`).
    pub fn progress_tick(&mut self) {
        let current = self.current_revision;
        for (&id, w) in &mut self.watchers.map {
            if !w.progress_notify || w.state != WatchState::Synced || w.victim.is_some() {
                continue;
            }
            // A watch that starts in the future hears nothing yet, not even progress at a
            // revision before its start (etcd issue #20221).
            if w.min_rev > current + 1 {
                continue;
            }
            if std::mem::take(&mut w.sent_since_tick) {
                continue;
            }
            match w.queue.back_mut() {
                Some(last) if last.is_progress_notify() => last.revision = current,
                _ => w.push(WatchResponse {
                    watch_id: id,
                    revision: current,
                    ..WatchResponse::default()
                }),
            }
        }
    }

    /// `poll_watch_events` encoded for the wasm boundary (layout in `codec.rs`): one buffer
    /// per batch.
    pub fn poll_watch_batch(&mut self, max_events: usize) -> Vec<u8> {
        crate::codec::encode_watch_responses(&self.poll_watch_events(max_events))
    }

    /// The state of a watch, `None` once its last response was polled.
    pub fn watch_state(&self, id: WatchId) -> Option<WatchState> {
        self.watchers.map.get(&id).map(|w| w.state)
    }

    /// Watches registered, including cancelled ones whose last response is not polled yet.
    pub fn watch_count(&self) -> usize {
        self.watchers.map.len()
    }

    /// True if a poll would return something now (queued responses, or history to catch up).
    pub fn has_watch_events(&self) -> bool {
        self.watchers
            .map
            .values()
            .any(|w| !w.queue.is_empty() || w.victim.is_some() || w.state == WatchState::Unsynced)
    }

    /// Queues the open revision's changes (log positions from `start`) to the synced watchers.
    pub(crate) fn notify_watchers(&mut self, start: u32) {
        if self.watchers.map.is_empty() {
            return;
        }
        let view = KvView {
            history: &self.history,
            slots: &self.slots,
            arena: &self.arena,
            compact_revision: self.compact_revision,
        };
        let end = view.history.len() as u32;
        let revision = self.current_revision;
        let capacity = self.watchers.capacity;
        for (&id, w) in &mut self.watchers.map {
            if w.state != WatchState::Synced || w.min_rev > revision {
                continue;
            }
            w.min_rev = revision + 1;
            let events = w.events(&view, start, end);
            if events.is_empty() {
                continue;
            }
            let response = WatchResponse {
                watch_id: id,
                revision,
                events,
                ..WatchResponse::default()
            };
            if w.fits(response.events.len(), capacity) {
                w.push(response);
            } else {
                w.victim = Some(response);
                w.state = WatchState::Victim;
            }
        }
    }

    /// Drains pending watch responses of all watchers, round-robin, whole responses only
    /// (all events of a revision travel together), stopping once `max_events` events are
    /// out (0 = no limit; a single larger response still goes out alone). Victims and unsynced
    /// watchers catch up from history as their buffers free up.
    pub fn poll_watch_events(&mut self, max_events: usize) -> Vec<WatchResponse> {
        let budget = if max_events == 0 {
            usize::MAX
        } else {
            max_events
        };
        let mut out = Vec::new();
        let mut sent = 0usize;
        loop {
            self.sync_watchers();
            let moved = self.drain_queues(&mut out, &mut sent, budget);
            self.watchers
                .map
                .retain(|_, w| w.state != WatchState::Closing || !w.queue.is_empty());
            if !moved || sent >= budget {
                break;
            }
        }
        let all_synced = self
            .watchers
            .map
            .values()
            .all(|w| w.queue.is_empty() && w.victim.is_none() && w.state == WatchState::Synced);
        if self.watchers.progress_requested && all_synced {
            self.watchers.progress_requested = false;
            out.push(WatchResponse {
                watch_id: PROGRESS_WATCH_ID,
                revision: self.current_revision,
                ..WatchResponse::default()
            });
        }
        out
    }

    fn drain_queues(
        &mut self,
        out: &mut Vec<WatchResponse>,
        sent: &mut usize,
        budget: usize,
    ) -> bool {
        let mut moved = false;
        let ids: Vec<WatchId> = {
            let cursor = self.watchers.cursor;
            let after = self.watchers.map.range(cursor..).map(|(&id, _)| id);
            let before = self.watchers.map.range(..cursor).map(|(&id, _)| id);
            after.chain(before).collect()
        };
        let mut progress = true;
        while progress {
            progress = false;
            for &id in &ids {
                let Some(w) = self.watchers.map.get_mut(&id) else {
                    continue;
                };
                let Some(front) = w.queue.front() else {
                    continue;
                };
                let n = front.events.len();
                if *sent > 0 && n > 0 && sent.saturating_add(n) > budget {
                    continue;
                }
                if *sent >= budget && n > 0 {
                    continue;
                }
                if let Some(response) = w.queue.pop_front() {
                    w.queued_events = w.queued_events.saturating_sub(response.events.len());
                    *sent += n;
                    out.push(response);
                    progress = true;
                    moved = true;
                    self.watchers.cursor = id.saturating_add(1);
                }
            }
        }
        moved
    }

    /// etcd's `moveVictims` and `syncWatchers` in one pass: parked batches go out once they fit,
    /// then behind watchers read history from their `min_rev` up to the buffer's room.
    fn sync_watchers(&mut self) {
        let view = KvView {
            history: &self.history,
            slots: &self.slots,
            arena: &self.arena,
            compact_revision: self.compact_revision,
        };
        let current = self.current_revision;
        let capacity = self.watchers.capacity;
        for (&id, w) in &mut self.watchers.map {
            if w.state == WatchState::Victim {
                let fits = w
                    .victim
                    .as_ref()
                    .is_some_and(|v| w.fits(v.events.len(), capacity));
                if !fits {
                    continue;
                }
                if let Some(victim) = w.victim.take() {
                    w.push(victim);
                }
                w.state = if w.min_rev <= current {
                    WatchState::Unsynced
                } else {
                    WatchState::Synced
                };
            }
            if w.state == WatchState::Unsynced {
                catch_up(id, w, &view, current, capacity);
            }
        }
    }
}

/// Reads history from `w.min_rev` into the watcher's buffer, whole revisions only, until the
/// buffer is full or the watcher reaches the current revision (then it is synced).
fn catch_up(id: WatchId, w: &mut Watcher, view: &KvView<'_>, current: i64, capacity: usize) {
    if w.min_rev < view.compact_revision {
        // etcd's `chooseAll`: the history this watcher needs is gone.
        w.queue.clear();
        w.queued_events = 0;
        w.state = WatchState::Closing;
        w.push(WatchResponse {
            watch_id: id,
            revision: current,
            canceled: true,
            compact_revision: view.compact_revision,
            ..WatchResponse::default()
        });
        return;
    }
    let end = view.history.len() as u32;
    let mut position = view.history.first_at_or_after(w.min_rev);
    let mut batch: Vec<Event> = Vec::new();
    while position < end {
        let revision = view.history.main_at(position);
        let mut next = position;
        while next < end && view.history.main_at(next) == revision {
            next += 1;
        }
        let events = w.events(view, position, next);
        if !events.is_empty() {
            let room_ok = w.queued_events + batch.len() + events.len() <= capacity
                || (batch.is_empty() && w.queued_events == 0);
            if !room_ok {
                break;
            }
            batch.extend(events);
        }
        w.min_rev = revision + 1;
        position = next;
    }
    if position >= end {
        w.min_rev = current + 1;
        w.state = WatchState::Synced;
    }
    if !batch.is_empty() {
        w.push(WatchResponse {
            watch_id: id,
            revision: current,
            events: batch,
            ..WatchResponse::default()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeleteRangeRequest, EventType, StoreOptions};

    fn prefix(key: &str, start: i64) -> WatchRequest {
        let mut end = key.as_bytes().to_vec();
        if let Some(last) = end.last_mut() {
            *last += 1;
        }
        WatchRequest {
            key: key.into(),
            range_end: end,
            start_revision: start,
            ..WatchRequest::default()
        }
    }

    fn revisions(responses: &[WatchResponse]) -> Vec<i64> {
        responses
            .iter()
            .flat_map(|r| r.events.iter().map(|e| e.kv.mod_revision))
            .collect()
    }

    #[test]
    fn live_and_historical_watches() {
        let mut store = Store::new();
        store.put(b"/a/1", b"x").unwrap();
        let live = store.watch(prefix("/a/", 0)).unwrap();
        let old = store.watch(prefix("/a/", 1)).unwrap();
        store.put(b"/a/2", b"y").unwrap();
        store.put(b"/b", b"z").unwrap();
        store
            .delete_range(&DeleteRangeRequest {
                key: b"/a/1".to_vec(),
                ..Default::default()
            })
            .unwrap();
        let out = store.poll_watch_events(0);
        let of = |id| {
            out.iter()
                .filter(|r| r.watch_id == id)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert!(of(live)[0].created);
        assert_eq!(revisions(&of(live)), [3, 5]);
        assert_eq!(revisions(&of(old)), [2, 3, 5]);
        let delete = &of(live)[2].events[0];
        assert_eq!(
            (delete.kind, delete.kv.mod_revision, delete.kv.version),
            (EventType::Delete, 5, 0)
        );
        assert_eq!(store.watch_state(old), Some(WatchState::Synced));
    }

    #[test]
    fn slow_consumer_becomes_victim_then_catches_up() {
        let mut store = Store::with_options(StoreOptions {
            watch_buffer_events: 2,
            ..StoreOptions::default()
        });
        let id = store.watch(prefix("/k", 0)).unwrap();
        for i in 0..10 {
            store.put(b"/k", format!("{i}").as_bytes()).unwrap();
        }
        assert_eq!(store.watch_state(id), Some(WatchState::Victim));
        let mut seen = Vec::new();
        for _ in 0..20 {
            seen.extend(revisions(&store.poll_watch_events(1)));
        }
        assert_eq!(
            seen,
            (2..12).collect::<Vec<_>>(),
            "nothing lost, nothing repeated"
        );
        assert_eq!(store.watch_state(id), Some(WatchState::Synced));
    }

    #[test]
    fn compaction_cancels_a_behind_watcher() {
        let mut store = Store::with_options(StoreOptions {
            watch_buffer_events: 1,
            ..StoreOptions::default()
        });
        let id = store.watch(prefix("/k", 0)).unwrap();
        for i in 0..5 {
            store.put(b"/k", format!("{i}").as_bytes()).unwrap();
        }
        store.compact(5).unwrap();
        let out = store.poll_watch_events(0);
        let last = out.last().unwrap();
        assert!(last.canceled);
        assert_eq!(last.compact_revision, 5);
        assert!(last.cancel_reason.is_empty());
        assert_eq!(store.watch_state(id), None);
        // Watching exactly at the compaction revision is allowed.
        let at = store.watch(prefix("/k", 5)).unwrap();
        let out = store.poll_watch_events(0);
        assert_eq!(revisions(&out), [5, 6]);
        assert_eq!(store.watch_state(at), Some(WatchState::Synced));
        assert_eq!(
            store.watch(prefix("/k", -1)).unwrap_err().code(),
            "E_COMPACTED"
        );
    }

    #[test]
    fn filters_prev_kv_progress_and_cancel() {
        let mut store = Store::new();
        let id = store
            .watch(WatchRequest {
                prev_kv: true,
                no_put: true,
                progress_notify: true,
                ..prefix("/k", 0)
            })
            .unwrap();
        store.put(b"/k", b"1").unwrap();
        store
            .delete_range(&DeleteRangeRequest {
                key: b"/k".to_vec(),
                ..Default::default()
            })
            .unwrap();
        let out = store.poll_watch_events(0);
        assert_eq!(out.len(), 2, "created + the delete; the put is filtered");
        assert_eq!(
            out[1].events[0].prev_kv.as_ref().map(|kv| kv.value.clone()),
            Some(b"1".to_vec())
        );
        store.progress_tick();
        assert!(
            store.poll_watch_events(0).is_empty(),
            "elided right after events"
        );
        store.progress_tick();
        let progress = store.poll_watch_events(0);
        assert!(progress[0].is_progress_notify());
        assert_eq!(progress[0].revision, 3);
        store.request_progress();
        let all = store.poll_watch_events(0);
        assert_eq!((all[0].watch_id, all[0].revision), (PROGRESS_WATCH_ID, 3));
        store.cancel_watch(id).unwrap();
        assert_eq!(store.cancel_watch(id), Err(StoreError::WatcherNotExist));
        assert!(store.poll_watch_events(0)[0].canceled);
        assert_eq!(store.watch_count(), 0);
        let bad = WatchRequest {
            key: b"b".to_vec(),
            range_end: b"a".to_vec(),
            ..WatchRequest::default()
        };
        assert_eq!(store.watch(bad), Err(StoreError::EmptyWatcherRange));
        let fixed = WatchRequest {
            watch_id: 7,
            ..prefix("/k", 0)
        };
        store.watch(fixed.clone()).unwrap();
        assert_eq!(store.watch(fixed), Err(StoreError::DuplicateWatchId));
    }
}

//! Watches, batch-oriented: `Store::watch` registers, every committed revision reaches the
//! synced watchers, and `Store::poll_watch_events` / `Store::poll_watch_batch` drain all
//! watchers' pending responses at once (no per-event callbacks across the wasm boundary).
//!
//! Fan-out shares, it does not copy. Watches of the same key range form a *group* with one
//! *feed*: a committed revision with events in the range is materialized once
//! ([`RevisionEvents`], behind an `Rc` shared by every group it concerns) and appended once to
//! the feed; each following watcher holds only a cursor. A commit therefore costs O(groups),
//! whatever the number of watchers, and a poll O(watchers) cursor moves plus the events of each
//! distinct run once (`codec.rs` encodes each shared run once, too). A watcher's own filters
//! (NOPUT, NODELETE) and `prev_kv` are applied when its run is handed out. Watchers of one range
//! that catch up from the same revision in the same poll share that history read as well.
//!
//! Backpressure follows etcd's `watchable_store.go`: a watcher is **synced** (follows its feed),
//! **unsynced** (behind: catches up from history when polled) or a **victim** (it fell more
//! than its buffer behind the feed: it leaves the feed and, at the next poll, catches up from
//! history like an unsynced watcher, from its first undelivered revision). A feed keeps only
//! what its slowest follower has not been given, and a follower is dropped to history once it
//! is more than twice its buffer behind (checked when the feed grows past that), so memory is
//! bounded per group; nothing is skipped; a watcher whose next revision was compacted
//! meanwhile is cancelled with `compact_revision`, so the client can re-list.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;

use crate::feed::{FeedEntry, FeedRun, Group, Planned, RevisionEvents};
use crate::range::in_range;
use crate::view::KvView;
use crate::{Event, EventType, Store, StoreError};

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
    /// The header revision: the last revision of the response's live events, else the current
    /// revision.
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

/// A response that does not come from the feed (created, canceled, progress, catch-up).
#[derive(Debug)]
struct Queued {
    /// It goes out once a follower's cursor reaches this feed position (after the feed events
    /// that were pending when it was queued); right away for a watcher off the feed.
    after: u64,
    response: WatchResponse,
    /// A catch-up batch's events (shared with the watchers that read the same history).
    events: Option<Rc<Vec<Event>>>,
}

#[derive(Debug)]
struct Watcher {
    group: u32,
    prev_kv: bool,
    progress_notify: bool,
    no_put: bool,
    no_delete: bool,
    state: WatchState,
    /// Off the feed: the next revision this watcher has not been given.
    min_rev: i64,
    /// Following its group's feed, `cursor` being the next entry it has not been given.
    following: bool,
    cursor: u64,
    queue: VecDeque<Queued>,
    queued_events: usize,
    /// A catch-up batch was queued since the last progress tick.
    sent_since_tick: bool,
    /// The feed's end at the last progress tick (feed events since elide the next progress).
    tick_mark: u64,
    /// `(poll, plan index)` of this watcher's last feed delivery, to extend it in that poll.
    open: (u64, usize),
}

impl Watcher {
    fn filtered(&self) -> bool {
        self.no_put || self.no_delete
    }

    fn wants(&self, event: &Event) -> bool {
        match event.kind {
            EventType::Put => !self.no_put,
            EventType::Delete => !self.no_delete,
        }
    }

    fn push(&mut self, after: u64, response: WatchResponse) {
        self.queue.push_back(Queued {
            after,
            response,
            events: None,
        });
    }

    fn push_events(&mut self, after: u64, response: WatchResponse, events: Rc<Vec<Event>>) {
        self.queued_events += events.len();
        self.sent_since_tick = true;
        self.queue.push_back(Queued {
            after,
            response,
            events: Some(events),
        });
    }

    /// The events of revision-ordered log positions `[from, to)` this watcher wants.
    fn history_events(&self, group: &Group, view: &KvView<'_>, from: u32, to: u32) -> Vec<Event> {
        let mut events = Vec::new();
        for position in from..to {
            let Some(change) = view.history.get(position) else {
                break;
            };
            let Some(slot) = view.slots.get(change.slot as usize) else {
                continue;
            };
            let tombstone = change.is_tombstone();
            if in_range(&group.key, &group.range_end, &slot.key)
                && !(tombstone && self.no_delete)
                && (tombstone || !self.no_put)
            {
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
    /// Groups by index; a group without members is free for reuse.
    groups: Vec<Group>,
    free_groups: Vec<u32>,
    group_of: HashMap<(Vec<u8>, Vec<u8>), u32>,
    /// Synced watchers whose start revision is still ahead (not following their feed yet).
    waiting: Vec<WatchId>,
    /// Open watches with `prev_kv`: live events get their `prev_kv` while there are any.
    prev_kv_watches: usize,
    next_id: WatchId,
    capacity: usize,
    progress_requested: bool,
    /// Round-robin start for fair draining.
    cursor: WatchId,
    /// Polls so far (tags `Watcher::open`).
    polls: u64,
}

impl Watchers {
    pub fn new(capacity: usize) -> Self {
        Watchers {
            map: BTreeMap::new(),
            groups: Vec::new(),
            free_groups: Vec::new(),
            group_of: HashMap::new(),
            waiting: Vec::new(),
            prev_kv_watches: 0,
            next_id: 0,
            capacity: capacity.max(1),
            progress_requested: false,
            cursor: 0,
            polls: 0,
        }
    }

    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The group of `[key, range_end)`, created if needed; `id` becomes a member.
    fn join(&mut self, id: WatchId, key: Vec<u8>, range_end: Vec<u8>) -> u32 {
        let range = (key, range_end);
        let index = match self.group_of.get(&range) {
            Some(&index) => index,
            None => {
                let group = Group::new(range.0.clone(), range.1.clone());
                let index = match self.free_groups.pop() {
                    Some(index) => {
                        if let Some(slot) = self.groups.get_mut(index as usize) {
                            *slot = group;
                        }
                        index
                    }
                    None => {
                        self.groups.push(group);
                        (self.groups.len() - 1) as u32
                    }
                };
                self.group_of.insert(range, index);
                index
            }
        };
        if let Some(group) = self.groups.get_mut(index as usize) {
            group.members.push(id);
        }
        index
    }

    /// Takes a closing watcher out of its group (and off the feed), freeing an emptied group.
    fn leave(&mut self, id: WatchId) {
        let Some(w) = self.map.get_mut(&id) else {
            return;
        };
        self.waiting.retain(|&waiting| waiting != id);
        if w.prev_kv {
            self.prev_kv_watches = self.prev_kv_watches.saturating_sub(1);
        }
        let Some(group) = self.groups.get_mut(w.group as usize) else {
            return;
        };
        if std::mem::take(&mut w.following) {
            group.followers = group.followers.saturating_sub(1);
        }
        group.members.retain(|&member| member != id);
        if group.members.is_empty() {
            self.group_of.remove(&(
                std::mem::take(&mut group.key),
                std::mem::take(&mut group.range_end),
            ));
            *group = Group::new(Vec::new(), Vec::new());
            self.free_groups.push(w.group);
        }
    }

    /// Puts waiting watchers whose start revision is `revision` or before on their feed.
    fn start_due(&mut self, revision: i64) {
        let (map, groups) = (&mut self.map, &mut self.groups);
        self.waiting.retain(|id| {
            let Some(w) = map.get_mut(id) else {
                return false;
            };
            if w.min_rev > revision {
                return true;
            }
            if let Some(group) = groups.get_mut(w.group as usize) {
                follow(w, group);
            }
            false
        });
    }

    /// The round-robin order of a drain pass.
    fn round_robin(&self) -> Vec<WatchId> {
        let after = self.map.range(self.cursor..).map(|(&id, _)| id);
        let before = self.map.range(..self.cursor).map(|(&id, _)| id);
        after.chain(before).collect()
    }
}

/// Puts a watcher on its group's feed at the feed's end.
fn follow(w: &mut Watcher, group: &mut Group) {
    if !w.following {
        group.followers += 1;
    }
    w.following = true;
    w.cursor = group.end();
    w.tick_mark = w.cursor;
    w.state = WatchState::Synced;
}

/// Drops the followers that fell more than `capacity` events behind to history (victims), and
/// trims the feed to what the remaining followers still need.
fn drop_slow_followers(map: &mut BTreeMap<WatchId, Watcher>, group: &mut Group, capacity: usize) {
    let end = group.end();
    let mut keep_from = end;
    let mut dropped = 0;
    for id in &group.members {
        let Some(w) = map.get_mut(id) else {
            continue;
        };
        if !w.following {
            continue;
        }
        let behind = group.total_events - group.events_before(w.cursor) + w.queued_events as u64;
        if behind > capacity as u64 && end - w.cursor > 1 {
            let Some(first) = group.entry(w.cursor) else {
                continue;
            };
            w.min_rev = first.block.revision;
            w.following = false;
            w.state = WatchState::Victim;
            // Only progress notifications can wait behind feed events; history replaces those
            // events, so the notifications would come too early.
            let cursor = w.cursor;
            w.queue.retain(|q| q.after <= cursor);
            dropped += 1;
        } else {
            keep_from = keep_from.min(w.cursor);
        }
    }
    group.followers = group.followers.saturating_sub(dropped);
    group.trim_to(keep_from);
}

/// How far a follower's next delivery reaches: feed entries `[cursor, to)`, `events` of them for
/// this watcher, the last at `revision`.
struct Reach {
    to: u64,
    events: usize,
    revision: i64,
}

/// Whole entries from `w.cursor` up to `limit`: the first must fit `room` (unless nothing went
/// out in this poll yet: a single larger revision goes out alone), the rest `quantum` too, so a
/// limited poll shares its budget between watchers.
fn reach(
    w: &Watcher,
    group: &Group,
    limit: u64,
    room: usize,
    quantum: usize,
    first: bool,
) -> Reach {
    let from = w.cursor;
    let allowance = quantum.min(room) as u64;
    if !w.filtered() {
        let base = group.events_before(from);
        let count = |to: u64| group.events_before(to) - base;
        let revision_of = |to: u64| group.entry(to - 1).map_or(0, |e| e.block.revision);
        let all = count(limit);
        if all <= allowance {
            return Reach {
                to: limit,
                events: all as usize,
                revision: revision_of(limit),
            };
        }
        let one = count(from + 1);
        if one > room as u64 && !first {
            return Reach {
                to: from,
                events: 0,
                revision: 0,
            };
        }
        // The last `to` in (from, limit] within the allowance (at least one entry).
        let cap = allowance.max(one);
        let (mut lo, mut hi) = (from + 1, limit);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if count(mid) <= cap {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return Reach {
            to: lo,
            events: count(lo) as usize,
            revision: revision_of(lo),
        };
    }
    let mut reach = Reach {
        to: from,
        events: 0,
        revision: 0,
    };
    for entry in group.entries(from, limit) {
        let n = entry.events().filter(|e| w.wants(e)).count();
        if n > 0 {
            let fits = if reach.events == 0 {
                n <= room || first
            } else {
                (reach.events + n) as u64 <= allowance
            };
            if !fits {
                break;
            }
            reach.events += n;
        }
        reach.to += 1;
        reach.revision = entry.block.revision;
    }
    reach
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
        let current = self.current_revision;
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
            current + 1
        } else {
            request.start_revision
        };
        let group = watchers.join(id, request.key, request.range_end);
        if request.prev_kv {
            watchers.prev_kv_watches += 1;
        }
        let mut watcher = Watcher {
            group,
            prev_kv: request.prev_kv,
            progress_notify: request.progress_notify,
            no_put: request.no_put,
            no_delete: request.no_delete,
            state: if start > current {
                WatchState::Synced
            } else {
                WatchState::Unsynced
            },
            min_rev: start,
            following: false,
            cursor: 0,
            queue: VecDeque::new(),
            queued_events: 0,
            sent_since_tick: false,
            tick_mark: 0,
            open: (u64::MAX, 0),
        };
        if start == current + 1 {
            if let Some(group) = watchers.groups.get_mut(group as usize) {
                follow(&mut watcher, group);
            }
        } else if start > current {
            watchers.waiting.push(id);
        }
        watcher.push(
            watcher.cursor,
            WatchResponse {
                watch_id: id,
                revision: current,
                created: true,
                ..WatchResponse::default()
            },
        );
        watchers.map.insert(id, watcher);
        Ok(id)
    }

    /// Cancels a watch: its undelivered events are dropped and a `canceled` response is queued.
    pub fn cancel_watch(&mut self, id: WatchId) -> Result<(), StoreError> {
        match self.watchers.map.get(&id) {
            Some(w) if w.state != WatchState::Closing => {}
            _ => return Err(StoreError::WatcherNotExist),
        }
        self.watchers.leave(id);
        let current = self.current_revision;
        if let Some(w) = self.watchers.map.get_mut(&id) {
            w.queue.clear();
            w.queued_events = 0;
            w.state = WatchState::Closing;
            w.push(
                0,
                WatchResponse {
                    watch_id: id,
                    revision: current,
                    canceled: true,
                    ..WatchResponse::default()
                },
            );
        }
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
        let Watchers { map, groups, .. } = &mut self.watchers;
        for (&id, w) in map.iter_mut() {
            // A watch that starts in the future (not following yet) hears nothing yet, not even
            // progress at a revision before its start (etcd issue #20221).
            if !w.progress_notify || w.state != WatchState::Synced || !w.following {
                continue;
            }
            let Some(group) = groups.get(w.group as usize) else {
                continue;
            };
            let end = group.end();
            let fed = std::mem::replace(&mut w.tick_mark, end) != end;
            if std::mem::take(&mut w.sent_since_tick) || fed {
                continue;
            }
            match w.queue.back_mut() {
                Some(last) if last.events.is_none() && last.response.is_progress_notify() => {
                    last.response.revision = current;
                    last.after = end;
                }
                _ => w.push(
                    end,
                    WatchResponse {
                        watch_id: id,
                        revision: current,
                        ..WatchResponse::default()
                    },
                ),
            }
        }
    }

    /// `poll_watch_events` encoded for the wasm boundary (layout in `codec.rs`): one buffer
    /// per batch, each shared run of events encoded once.
    pub fn poll_watch_batch(&mut self, max_events: usize) -> Vec<u8> {
        let mut out = Vec::new();
        self.poll_watch_batch_into(max_events, &mut out);
        out
    }

    /// As `poll_watch_batch`, appending to `out`; returns the events delivered (an event
    /// delivered to n watchers counts n times).
    pub fn poll_watch_batch_into(&mut self, max_events: usize, out: &mut Vec<u8>) -> usize {
        let plan = self.plan_poll(max_events);
        let delivered = crate::codec::encode_poll(self.watchers.groups(), &plan, out);
        self.trim_feeds();
        delivered
    }

    /// Drains pending watch responses of all watchers, round-robin, whole revisions only
    /// (all events of a revision travel together), stopping once `max_events` events are
    /// out (0 = no limit; a single larger revision still goes out alone). A watcher's
    /// consecutive live revisions travel as one response. Victims and unsynced watchers catch
    /// up from history as their buffers free up.
    pub fn poll_watch_events(&mut self, max_events: usize) -> Vec<WatchResponse> {
        let plan = self.plan_poll(max_events);
        let groups = self.watchers.groups();
        let out = plan
            .into_iter()
            .filter_map(|planned| match planned {
                Planned::Response(mut response, events) => {
                    if let Some(events) = events {
                        response.events = events.to_vec();
                    }
                    Some(response)
                }
                Planned::Feed(run) => Some(run.materialize(groups.get(run.group as usize)?)),
            })
            .collect();
        self.trim_feeds();
        out
    }

    /// The state of a watch, `None` once its last response was polled.
    pub fn watch_state(&self, id: WatchId) -> Option<WatchState> {
        self.watchers.map.get(&id).map(|w| w.state)
    }

    /// Watches registered, including cancelled ones whose last response is not polled yet.
    pub fn watch_count(&self) -> usize {
        self.watchers.map.len()
    }

    /// True if a poll would return something now: queued responses, feed events, history to
    /// catch up, or a requested progress notification.
    pub fn has_watch_events(&self) -> bool {
        let watchers = &self.watchers;
        // With nothing else pending every watcher is synced and drained, so a requested
        // progress notification goes out at the next poll.
        watchers.progress_requested
            || watchers.map.values().any(|w| {
                !w.queue.is_empty()
                    || matches!(w.state, WatchState::Unsynced | WatchState::Victim)
                    || (w.following
                        && watchers
                            .groups
                            .get(w.group as usize)
                            .is_some_and(|g| w.cursor < g.end()))
            })
    }

    /// Appends the open revision's changes (log positions from `start`) to the feeds of the
    /// groups they concern, materializing them once.
    pub(crate) fn notify_watchers(&mut self, start: u32) {
        let revision = self.current_revision;
        let watchers = &mut self.watchers;
        if watchers.map.is_empty() {
            return;
        }
        if !watchers.waiting.is_empty() {
            watchers.start_due(revision);
        }
        let view = KvView {
            history: &self.history,
            slots: &self.slots,
            arena: &self.arena,
            compact_revision: self.compact_revision,
        };
        let end = view.history.len() as u32;
        let with_prev = watchers.prev_kv_watches > 0;
        let capacity = watchers.capacity;
        let mut block: Option<Rc<RevisionEvents>> = None;
        for group in &mut watchers.groups {
            if group.followers == 0 {
                continue;
            }
            let in_group = |key: &[u8]| in_range(&group.key, &group.range_end, key);
            let block = match &block {
                Some(block) => Rc::clone(block),
                None => {
                    let concerned = (start..end).any(|position| {
                        view.history
                            .get(position)
                            .and_then(|c| view.slots.get(c.slot as usize))
                            .is_some_and(|slot| in_group(&slot.key))
                    });
                    if !concerned {
                        continue;
                    }
                    let events = (start..end)
                        .filter_map(|position| view.event_at(position, with_prev))
                        .collect();
                    Rc::clone(block.insert(Rc::new(RevisionEvents { revision, events })))
                }
            };
            let count = block.events.iter().filter(|e| in_group(&e.kv.key)).count();
            if count == 0 {
                continue;
            }
            let selected = (count < block.events.len()).then(|| {
                (0u32..)
                    .zip(&block.events)
                    .filter(|(_, e)| in_group(&e.kv.key))
                    .map(|(i, _)| i)
                    .collect()
            });
            group.feed.push_back(FeedEntry {
                block,
                selected,
                events_before: group.total_events,
            });
            group.total_events += count as u64;
            if group.total_events - group.events_before(group.head) > 2 * capacity as u64 {
                drop_slow_followers(&mut watchers.map, group, capacity);
            }
        }
    }

    /// Plans one poll (see `poll_watch_events`); the feeds stay untrimmed until the plan is
    /// materialized or encoded, then `trim_feeds` runs.
    fn plan_poll(&mut self, max_events: usize) -> Vec<Planned> {
        let budget = if max_events == 0 {
            usize::MAX
        } else {
            max_events
        };
        self.watchers.polls += 1;
        let mut plan = Vec::new();
        let mut sent = 0usize;
        loop {
            self.sync_watchers();
            let moved = self.drain(&mut plan, &mut sent, budget);
            self.watchers
                .map
                .retain(|_, w| w.state != WatchState::Closing || !w.queue.is_empty());
            if !moved || sent >= budget {
                break;
            }
        }
        let watchers = &self.watchers;
        let all_synced = watchers.map.values().all(|w| {
            w.queue.is_empty()
                && w.state == WatchState::Synced
                && (!w.following
                    || watchers
                        .groups
                        .get(w.group as usize)
                        .is_none_or(|g| w.cursor >= g.end()))
        });
        if self.watchers.progress_requested && all_synced {
            self.watchers.progress_requested = false;
            plan.push(Planned::Response(
                WatchResponse {
                    watch_id: PROGRESS_WATCH_ID,
                    revision: self.current_revision,
                    ..WatchResponse::default()
                },
                None,
            ));
        }
        plan
    }

    /// Drops feed entries every follower has been given.
    fn trim_feeds(&mut self) {
        let Watchers { map, groups, .. } = &mut self.watchers;
        let mut keep_from: Vec<u64> = groups.iter().map(Group::end).collect();
        for w in map.values() {
            if let Some(keep) = keep_from.get_mut(w.group as usize).filter(|_| w.following) {
                *keep = (*keep).min(w.cursor);
            }
        }
        for (group, keep) in groups.iter_mut().zip(keep_from) {
            group.trim_to(keep);
        }
    }

    /// Round-robin passes over the watchers, each handing out a watcher's next queued response
    /// or its next run of feed entries, until nothing moves or the budget is spent.
    fn drain(&mut self, plan: &mut Vec<Planned>, sent: &mut usize, budget: usize) -> bool {
        let ids = self.watchers.round_robin();
        let Watchers {
            map,
            groups,
            cursor,
            polls,
            ..
        } = &mut self.watchers;
        let poll = *polls;
        let mut moved = false;
        // Watchers that moved in the last pass share the budget left (all of them at first).
        let mut movers = ids.len();
        while movers > 0 {
            let quantum = (budget.saturating_sub(*sent) / movers).max(1);
            movers = 0;
            for &id in &ids {
                let Some(w) = map.get_mut(&id) else {
                    continue;
                };
                if let Some(front) = w.queue.front() {
                    if !w.following || front.after <= w.cursor {
                        let n = front.events.as_ref().map_or(0, |e| e.len());
                        if n > 0 && *sent > 0 && sent.saturating_add(n) > budget {
                            continue;
                        }
                        if let Some(queued) = w.queue.pop_front() {
                            w.queued_events = w.queued_events.saturating_sub(n);
                            *sent += n;
                            plan.push(Planned::Response(queued.response, queued.events));
                            w.open = (u64::MAX, 0);
                            movers += 1;
                            moved = true;
                            *cursor = id.saturating_add(1);
                        }
                        continue;
                    }
                }
                if !w.following {
                    continue;
                }
                let Some(group) = groups.get(w.group as usize) else {
                    continue;
                };
                let limit = w
                    .queue
                    .front()
                    .map_or(group.end(), |q| q.after.min(group.end()));
                if w.cursor >= limit {
                    continue;
                }
                let room = budget.saturating_sub(*sent);
                let reach = reach(w, group, limit, room, quantum, *sent == 0);
                if reach.to == w.cursor {
                    continue;
                }
                movers += 1;
                moved = true;
                let from = std::mem::replace(&mut w.cursor, reach.to);
                if reach.events == 0 {
                    continue; // all filtered out: nothing to send
                }
                *sent += reach.events;
                *cursor = id.saturating_add(1);
                if w.open.0 == poll {
                    if let Some(Planned::Feed(run)) = plan.get_mut(w.open.1) {
                        if run.to == from {
                            run.to = reach.to;
                            run.events += reach.events;
                            run.revision = reach.revision;
                            continue;
                        }
                    }
                }
                w.open = (poll, plan.len());
                plan.push(Planned::Feed(FeedRun {
                    watch_id: id,
                    revision: reach.revision,
                    group: w.group,
                    from,
                    to: reach.to,
                    events: reach.events,
                    prev_kv: w.prev_kv,
                    no_put: w.no_put,
                    no_delete: w.no_delete,
                }));
            }
        }
        moved
    }

    /// etcd's `moveVictims` and `syncWatchers` in one pass: victims become unsynced, and
    /// unsynced watchers read history from their `min_rev` up to their buffer's room.
    fn sync_watchers(&mut self) {
        let view = KvView {
            history: &self.history,
            slots: &self.slots,
            arena: &self.arena,
            compact_revision: self.compact_revision,
        };
        let current = self.current_revision;
        let capacity = self.watchers.capacity;
        let mut compacted = Vec::new();
        let mut reads = HashMap::new();
        let Watchers { map, groups, .. } = &mut self.watchers;
        for (&id, w) in map.iter_mut() {
            if w.state == WatchState::Victim {
                w.state = WatchState::Unsynced;
            }
            if w.state != WatchState::Unsynced {
                continue;
            }
            let Some(group) = groups.get_mut(w.group as usize) else {
                continue;
            };
            if !catch_up(id, w, group, &view, current, capacity, &mut reads) {
                compacted.push(id);
            }
        }
        for id in compacted {
            self.watchers.leave(id);
        }
    }
}

/// What a catch-up read depends on: the range, where it starts, the room it has, the filters.
#[derive(Hash, PartialEq, Eq)]
struct ReadKey {
    group: u32,
    min_rev: i64,
    queued_events: usize,
    prev_kv: bool,
    no_put: bool,
    no_delete: bool,
}

/// A catch-up read: its events (shared by every watcher with the same `ReadKey` in one sync
/// pass), where the next read starts, and whether it reached the current revision.
struct Read {
    events: Option<Rc<Vec<Event>>>,
    min_rev: i64,
    done: bool,
}

/// Reads history from `w.min_rev` into the watcher's queue, whole revisions only, until the
/// buffer is full or the watcher reaches the current revision (then it follows the feed).
/// Watchers of one range reading from the same point share the read (`reads`).
/// False if the history it needs was compacted: it is cancelled and must leave its group.
fn catch_up(
    id: WatchId,
    w: &mut Watcher,
    group: &mut Group,
    view: &KvView<'_>,
    current: i64,
    capacity: usize,
    reads: &mut HashMap<ReadKey, Read>,
) -> bool {
    if w.min_rev < view.compact_revision {
        // etcd's `chooseAll`: the history this watcher needs is gone.
        w.queue.clear();
        w.queued_events = 0;
        w.state = WatchState::Closing;
        w.push(
            0,
            WatchResponse {
                watch_id: id,
                revision: current,
                canceled: true,
                compact_revision: view.compact_revision,
                ..WatchResponse::default()
            },
        );
        return false;
    }
    if w.queued_events >= capacity {
        return true; // no room until this watcher is polled
    }
    let key = ReadKey {
        group: w.group,
        min_rev: w.min_rev,
        queued_events: w.queued_events,
        prev_kv: w.prev_kv,
        no_put: w.no_put,
        no_delete: w.no_delete,
    };
    let read = reads
        .entry(key)
        .or_insert_with(|| read_history(w, group, view, capacity));
    w.min_rev = read.min_rev;
    if read.done {
        w.min_rev = current + 1;
        follow(w, group);
    }
    if let Some(events) = &read.events {
        let response = WatchResponse {
            watch_id: id,
            revision: current,
            ..WatchResponse::default()
        };
        w.push_events(w.cursor, response, Rc::clone(events));
    }
    true
}

/// The history a catch-up of `w` reads: whole revisions from `w.min_rev` while they fit the
/// buffer (a single larger revision alone into an empty buffer).
fn read_history(w: &Watcher, group: &Group, view: &KvView<'_>, capacity: usize) -> Read {
    let end = view.history.len() as u32;
    let mut position = view.history.first_at_or_after(w.min_rev);
    let mut min_rev = w.min_rev;
    let mut batch: Vec<Event> = Vec::new();
    while position < end {
        let revision = view.history.main_at(position);
        let mut next = position;
        while next < end && view.history.main_at(next) == revision {
            next += 1;
        }
        let events = w.history_events(group, view, position, next);
        if !events.is_empty() {
            let room_ok = w.queued_events + batch.len() + events.len() <= capacity
                || (batch.is_empty() && w.queued_events == 0);
            if !room_ok {
                break;
            }
            batch.extend(events);
        }
        min_rev = revision + 1;
        position = next;
    }
    Read {
        events: (!batch.is_empty()).then(|| Rc::new(batch)),
        min_rev,
        done: position >= end,
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
        assert_eq!(
            of(live).len(),
            2,
            "created, then revisions 3 and 5 in one response"
        );
        let delete = &of(live)[1].events[1];
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

    #[test]
    fn a_feed_is_shared_bounded_and_freed_with_its_last_watcher() {
        let mut store = Store::with_options(StoreOptions {
            watch_buffer_events: 4,
            ..StoreOptions::default()
        });
        let fast = store.watch(prefix("/a/", 0)).unwrap();
        let slow = store.watch(prefix("/a/", 0)).unwrap();
        // A future start shares the group but waits for its revision.
        let future = store.watch(prefix("/a/", 6)).unwrap();
        assert_eq!(store.watchers.groups.len(), 1);
        store.poll_watch_events(0);
        for i in 0..40 {
            store.put(format!("/a/{}", i % 3).as_bytes(), b"v").unwrap();
            let group = &store.watchers.groups[0];
            assert!(
                group.total_events - group.events_before(group.head) <= 8,
                "the feed keeps at most twice the buffer"
            );
        }
        // Nobody polled: more than the buffer behind, all fell back to history.
        for id in [fast, slow, future] {
            assert_eq!(store.watch_state(id), Some(WatchState::Victim));
        }
        let mut seen: BTreeMap<WatchId, Vec<i64>> = BTreeMap::new();
        while store.has_watch_events() {
            for r in store.poll_watch_events(3) {
                seen.entry(r.watch_id).or_default().extend(revisions(&[r]));
            }
        }
        assert_eq!(seen[&fast], (2..42).collect::<Vec<_>>());
        assert_eq!(seen[&slow], (2..42).collect::<Vec<_>>());
        assert_eq!(seen[&future], (6..42).collect::<Vec<_>>());
        assert!(store.watchers.groups[0].feed.is_empty());
        for id in [fast, slow, future] {
            store.cancel_watch(id).unwrap();
        }
        store.poll_watch_events(0);
        assert_eq!(store.watchers.free_groups, [0]);
        assert!(store.watchers.group_of.is_empty());
        let again = store.watch(prefix("/b/", 0)).unwrap();
        assert_eq!(
            store.watchers.map[&again].group, 0,
            "the freed group is reused"
        );
    }

    #[test]
    fn a_limited_poll_shares_its_budget_between_watchers() {
        let mut store = Store::new();
        let ids: Vec<_> = (0..4)
            .map(|_| store.watch(prefix("/k", 0)).unwrap())
            .collect();
        store.poll_watch_events(0);
        for i in 0..10 {
            store.put(b"/k", format!("{i}").as_bytes()).unwrap();
        }
        let out = store.poll_watch_events(8);
        assert_eq!(out.len(), 4, "one merged response per watcher");
        assert!(out.iter().all(|r| r.events.len() == 2));
        assert_eq!(
            out[0].revision, 3,
            "header: the last revision of the response"
        );
        let rest = store.poll_watch_events(0);
        assert_eq!(
            rest.iter().map(|r| r.watch_id).collect::<Vec<_>>(),
            ids,
            "the rest in one response each"
        );
        assert!(rest
            .iter()
            .all(|r| revisions(std::slice::from_ref(r)) == (4..12).collect::<Vec<_>>()));
    }

    #[test]
    fn a_progress_tick_never_jumps_a_queued_catch_up() {
        let mut store = Store::with_options(StoreOptions {
            watch_buffer_events: 1,
            ..StoreOptions::default()
        });
        store.put(b"/b", b"0").unwrap();
        store.put(b"/a", b"0").unwrap();
        let a = store.watch(prefix("/a", 3)).unwrap();
        let b = store
            .watch(WatchRequest {
                progress_notify: true,
                ..prefix("/b", 2)
            })
            .unwrap();
        // A budget of one: b's catch-up (revision 2) stays queued, b follows its feed.
        let first = store.poll_watch_events(1);
        assert_eq!(revisions(&first), [3]);
        store
            .delete_range(&DeleteRangeRequest {
                key: b"/a".to_vec(),
                range_end: b"/c".to_vec(),
                ..Default::default()
            })
            .unwrap();
        store.progress_tick();
        store.put(b"/c", b"0").unwrap();
        store.progress_tick();
        let of = |out: &[WatchResponse], id| {
            out.iter()
                .filter(|r| r.watch_id == id)
                .map(|r| (revisions(std::slice::from_ref(r)), r.revision))
                .collect::<Vec<_>>()
        };
        let out = store.poll_watch_events(0);
        assert_eq!(
            of(&out, b),
            [(vec![2], 3), (vec![4], 4), (vec![], 5)],
            "catch-up, live, then progress"
        );
        assert_eq!(of(&out, a), [(vec![4], 4)]);
    }
}

//! A key range's shared event feed: every committed revision with events in the range is
//! appended once, its events materialized once (`RevisionEvents`, shared by `Rc` between the
//! feeds of all ranges it concerns); each watcher of the range that follows the feed holds only
//! a cursor. A poll hands out runs of whole entries (`FeedRun`), which `codec.rs` encodes once
//! however many watchers take them.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::watch::WatchId;
use crate::{Event, EventType, WatchResponse};

/// The events of one committed revision, materialized once and shared (`Rc`) by every feed
/// that has any of them; `prev_kv` is filled when some watcher asked for it.
#[derive(Debug)]
pub(crate) struct RevisionEvents {
    pub revision: i64,
    pub events: Vec<Event>,
}

/// One revision in a group's feed.
#[derive(Debug)]
pub(crate) struct FeedEntry {
    pub block: Rc<RevisionEvents>,
    /// Indices into `block.events` of the events in the group's range; `None` = all of them.
    pub selected: Option<Box<[u32]>>,
    /// Events appended to the feed before this entry.
    pub events_before: u64,
}

impl FeedEntry {
    /// The entry's events, in revision order.
    pub fn events(&self) -> impl Iterator<Item = &Event> + '_ {
        let events = &self.block.events;
        let (all, some) = match &self.selected {
            None => (Some(events.iter()), None),
            Some(indices) => (
                None,
                Some(indices.iter().filter_map(move |&i| events.get(i as usize))),
            ),
        };
        all.into_iter().flatten().chain(some.into_iter().flatten())
    }
}

/// The watches of one key range and their shared feed.
#[derive(Debug)]
pub(crate) struct Group {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    /// Every member that is not closing (followers of the feed or not).
    pub members: Vec<WatchId>,
    /// Members following the feed.
    pub followers: usize,
    pub feed: VecDeque<FeedEntry>,
    /// Sequence number of `feed[0]`.
    pub head: u64,
    /// Events ever appended: `events_before` of the next entry.
    pub total_events: u64,
}

impl Group {
    pub fn new(key: Vec<u8>, range_end: Vec<u8>) -> Self {
        Group {
            key,
            range_end,
            members: Vec::new(),
            followers: 0,
            feed: VecDeque::new(),
            head: 0,
            total_events: 0,
        }
    }

    /// Sequence number of the next entry.
    pub fn end(&self) -> u64 {
        self.head + self.feed.len() as u64
    }

    pub fn entry(&self, seq: u64) -> Option<&FeedEntry> {
        let index = usize::try_from(seq.checked_sub(self.head)?).ok()?;
        self.feed.get(index)
    }

    /// Events in the feed before entry `seq` (`seq` in `head..=end`).
    pub fn events_before(&self, seq: u64) -> u64 {
        self.entry(seq)
            .map_or(self.total_events, |e| e.events_before)
    }

    /// The entries `[from, to)`.
    pub fn entries(&self, from: u64, to: u64) -> impl Iterator<Item = &FeedEntry> + '_ {
        let skip = usize::try_from(from.saturating_sub(self.head)).unwrap_or(usize::MAX);
        let take = usize::try_from(to.saturating_sub(from)).unwrap_or(usize::MAX);
        self.feed.iter().skip(skip).take(take)
    }

    pub fn trim_to(&mut self, seq: u64) {
        while self.head < seq && self.feed.pop_front().is_some() {
            self.head += 1;
        }
    }
}

/// One response of a poll, before it is materialized or encoded.
#[derive(Debug)]
pub(crate) enum Planned {
    /// A response of the watcher's own (created, canceled, progress, catch-up). A catch-up
    /// batch's events are in the `Rc`, shared by the watchers of the range that read the same
    /// history in the same poll.
    Response(WatchResponse, Option<Rc<Vec<Event>>>),
    /// Feed entries `[from, to)` of a group, seen through one watcher's filters.
    Feed(FeedRun),
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct FeedRun {
    pub watch_id: WatchId,
    /// Header revision: the revision of the run's last entry.
    pub revision: i64,
    pub group: u32,
    pub from: u64,
    pub to: u64,
    /// Events this watcher gets from the run.
    pub events: usize,
    pub prev_kv: bool,
    pub no_put: bool,
    pub no_delete: bool,
}

impl FeedRun {
    pub fn filtered(&self) -> bool {
        self.no_put || self.no_delete
    }

    pub fn wants(&self, event: &Event) -> bool {
        match event.kind {
            EventType::Put => !self.no_put,
            EventType::Delete => !self.no_delete,
        }
    }

    /// The run's events as this watcher sees them (filters applied, `prev_kv` if asked).
    pub fn materialize(&self, group: &Group) -> WatchResponse {
        let events = group
            .entries(self.from, self.to)
            .flat_map(FeedEntry::events)
            .filter(|e| self.wants(e))
            .map(|e| Event {
                kind: e.kind,
                kv: e.kv.clone(),
                prev_kv: if self.prev_kv {
                    e.prev_kv.clone()
                } else {
                    None
                },
            })
            .collect();
        WatchResponse {
            watch_id: self.watch_id,
            revision: self.revision,
            events,
            ..WatchResponse::default()
        }
    }
}

//! Range reads (`W learning/api.md` Range; `E server/etcdserver/txn/range.go` executeRange;
//! `E server/storage/mvcc/kvstore_txn.go` rangeKeys).

use std::ops::Bound;

use crate::view::KvView;
use crate::{KeyValue, Store, StoreError};

/// `RangeRequest.SortOrder`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortOrder {
    #[default]
    None,
    Ascend,
    Descend,
}

/// `RangeRequest.SortTarget`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortTarget {
    #[default]
    Key,
    Version,
    Create,
    Mod,
    Value,
}

/// A read of `[key, range_end)` (etcd's conventions: empty end = one key, `"\0"` = to the end,
/// `key + 1` = a prefix).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeRequest {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    /// Revision to read at; 0 or less reads the latest.
    pub revision: i64,
    /// Most keys to return; 0 means no limit.
    pub limit: usize,
    /// Return only `count`.
    pub count_only: bool,
    /// Return keys without values.
    pub keys_only: bool,
    pub sort_order: SortOrder,
    pub sort_target: SortTarget,
    /// Filters; 0 means no bound.
    pub min_mod_revision: i64,
    pub max_mod_revision: i64,
    pub min_create_revision: i64,
    pub max_create_revision: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeResponse {
    pub kvs: Vec<KeyValue>,
    /// True when `limit` cut keys off.
    pub more: bool,
    /// All keys in the range at that revision, whatever the limit and filters.
    pub count: usize,
    /// The store's current revision (etcd's header revision, even for a historical read).
    pub revision: i64,
}

pub(crate) type KeyBounds<'a> = (Bound<&'a [u8]>, Bound<&'a [u8]>);

/// etcd's range conventions as B-tree bounds; `None` for an end at or before the start (an
/// empty range, as etcd answers it).
pub(crate) fn bounds<'a>(key: &'a [u8], range_end: &'a [u8]) -> Option<KeyBounds<'a>> {
    match range_end {
        [] => Some((Bound::Included(key), Bound::Included(key))),
        [0] => Some((Bound::Included(key), Bound::Unbounded)),
        end if end <= key => None,
        end => Some((Bound::Included(key), Bound::Excluded(end))),
    }
}

/// True if `key` falls in `[start, range_end)` under the same conventions.
pub(crate) fn in_range(start: &[u8], range_end: &[u8], key: &[u8]) -> bool {
    match range_end {
        [] => key == start,
        [0] => key >= start,
        end => key >= start && key < end,
    }
}

impl Store {
    /// Reads the keys of `[key, range_end)` as they were at `revision`.
    pub fn range(&self, request: &RangeRequest) -> Result<RangeResponse, StoreError> {
        if request.key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        self.range_in_view(request, self.view_revision())
    }

    /// A range as seen by a read view whose current revision is `current` (inside a write txn
    /// with changes, `current_revision + 1`, so the txn reads its own writes).
    pub(crate) fn range_in_view(
        &self,
        request: &RangeRequest,
        current: i64,
    ) -> Result<RangeResponse, StoreError> {
        let at = if request.revision <= 0 {
            current
        } else {
            request.revision
        };
        self.check_read_revision(at, current)?;
        let mut response = RangeResponse {
            revision: current,
            ..RangeResponse::default()
        };
        let Some(range) = bounds(&request.key, &request.range_end) else {
            return Ok(response);
        };
        let view = self.view();
        let filtered = request.min_mod_revision != 0
            || request.max_mod_revision != 0
            || request.min_create_revision != 0
            || request.max_create_revision != 0;
        let sorted = request.sort_order != SortOrder::None;
        // Without filters or sort, nothing past limit + 1 needs building (etcd fetches one
        // extra for `more`); `count` still walks the whole range, as etcd's index does.
        let build_limit = if request.limit == 0 || filtered || sorted {
            usize::MAX
        } else {
            request.limit.saturating_add(1)
        };
        for (_, &slot_id) in self.index.range::<[u8], _>(range) {
            let Some(slot) = self.slots.get(slot_id as usize) else {
                continue;
            };
            let Some(index) = slot.index_at(at, &self.history) else {
                continue;
            };
            let Some(change) = slot.revs.get(index).and_then(|&p| self.history.get(p)) else {
                continue;
            };
            if change.is_tombstone() {
                continue;
            }
            response.count += 1;
            if request.count_only || response.kvs.len() >= build_limit {
                continue;
            }
            // etcd sorts with values and empties them last, so a VALUE sort needs them.
            let without_values = request.keys_only && request.sort_target != SortTarget::Value;
            if let Some(kv) = view.kv_at(slot, index, without_values) {
                response.kvs.push(kv);
            }
        }
        if filtered {
            response.kvs.retain(|kv| keep(request, kv));
        }
        sort(&mut response.kvs, request.sort_order, request.sort_target);
        if request.limit > 0 && response.kvs.len() > request.limit {
            response.kvs.truncate(request.limit);
            response.more = true;
        }
        if request.keys_only {
            response.kvs.iter_mut().for_each(|kv| kv.value = Vec::new());
        }
        Ok(response)
    }

    pub(crate) fn check_read_revision(&self, at: i64, current: i64) -> Result<(), StoreError> {
        if at > current {
            return Err(StoreError::FutureRevision {
                current_revision: self.current_revision,
            });
        }
        if at < self.compact_revision {
            return Err(StoreError::Compacted {
                compact_revision: self.compact_revision,
            });
        }
        Ok(())
    }

    pub(crate) fn view(&self) -> KvView<'_> {
        KvView {
            history: &self.history,
            slots: &self.slots,
            arena: &self.arena,
            compact_revision: self.compact_revision,
        }
    }
}

fn keep(request: &RangeRequest, kv: &KeyValue) -> bool {
    !((request.max_mod_revision != 0 && kv.mod_revision > request.max_mod_revision)
        || (request.min_mod_revision != 0 && kv.mod_revision < request.min_mod_revision)
        || (request.max_create_revision != 0 && kv.create_revision > request.max_create_revision)
        || (request.min_create_revision != 0 && kv.create_revision < request.min_create_revision))
}

/// etcd's sort rules: a non-key target sorts ascending by default; key-ascending is the index
/// order already. Stable, so ties keep key order (Go's `sort.Sort` leaves them unspecified).
fn sort(kvs: &mut [KeyValue], order: SortOrder, target: SortTarget) {
    let order = match (order, target) {
        (SortOrder::None, SortTarget::Key) | (SortOrder::Ascend, SortTarget::Key) => return,
        (SortOrder::None, _) => SortOrder::Ascend,
        (order, _) => order,
    };
    kvs.sort_by(|a, b| {
        let ordering = match target {
            SortTarget::Key => a.key.cmp(&b.key),
            SortTarget::Version => a.version.cmp(&b.version),
            SortTarget::Create => a.create_revision.cmp(&b.create_revision),
            SortTarget::Mod => a.mod_revision.cmp(&b.mod_revision),
            SortTarget::Value => a.value.cmp(&b.value),
        };
        if order == SortOrder::Descend {
            ordering.reverse()
        } else {
            ordering
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(key: &str, end: &str) -> RangeRequest {
        RangeRequest {
            key: key.into(),
            range_end: end.into(),
            ..RangeRequest::default()
        }
    }

    fn seeded() -> Store {
        let mut store = Store::new();
        for (k, v) in [("/p/1", "c"), ("/p/2", "a"), ("/p/3", "b"), ("/q/1", "z")] {
            store.put(k.as_bytes(), v.as_bytes()).unwrap();
        }
        store.put(b"/p/1", b"c2").unwrap();
        store
    }

    #[test]
    fn prefix_range_with_limit_counts_everything() {
        let store = seeded();
        let response = store
            .range(&RangeRequest {
                limit: 2,
                ..req("/p/", "/p0")
            })
            .unwrap();
        assert_eq!(response.kvs.len(), 2);
        assert_eq!((response.count, response.more), (3, true));
        assert_eq!(store.range(&req("\0", "\0")).unwrap().count, 4);
        assert_eq!(store.range(&req("/p/2", "\0")).unwrap().count, 3);
        assert_eq!(
            store.range(&req("/q", "/p")).unwrap().count,
            0,
            "end before start is empty"
        );
    }

    #[test]
    fn count_only_keys_only_filters_and_sort() {
        let store = seeded();
        let counted = store
            .range(&RangeRequest {
                count_only: true,
                ..req("/p/", "/p0")
            })
            .unwrap();
        assert_eq!(
            (counted.count, counted.kvs.len(), counted.more),
            (3, 0, false)
        );
        let keys = store
            .range(&RangeRequest {
                keys_only: true,
                ..req("/p/", "/p0")
            })
            .unwrap();
        assert!(keys.kvs.iter().all(|kv| kv.value.is_empty()));
        let by_value = store
            .range(&RangeRequest {
                sort_target: SortTarget::Value,
                sort_order: SortOrder::Descend,
                limit: 2,
                ..req("/p/", "/p0")
            })
            .unwrap();
        let values: Vec<_> = by_value.kvs.iter().map(|kv| kv.value.clone()).collect();
        assert_eq!(values, [b"c2".to_vec(), b"b".to_vec()]);
        assert!(by_value.more);
        let modded = store
            .range(&RangeRequest {
                min_mod_revision: 4,
                ..req("/p/", "/p0")
            })
            .unwrap();
        assert_eq!(modded.kvs.len(), 2, "/p/3 at 4 and /p/1 at 6");
        assert_eq!(modded.count, 3, "count ignores filters, as etcd's");
        let created = store
            .range(&RangeRequest {
                max_create_revision: 2,
                ..req("/p/", "/p0")
            })
            .unwrap();
        assert_eq!(created.kvs.len(), 1);
        assert_eq!(created.kvs[0].version, 2);
    }

    #[test]
    fn reads_at_a_past_revision() {
        let store = seeded();
        let old = store
            .range(&RangeRequest {
                revision: 2,
                ..req("/p/1", "")
            })
            .unwrap();
        assert_eq!(old.kvs[0].value, b"c");
        assert_eq!(old.revision, 6, "header revision is the current one");
        assert_eq!(
            store
                .range(&RangeRequest {
                    revision: 1,
                    ..req("/p/1", "")
                })
                .unwrap()
                .count,
            0
        );
        let future = store.range(&RangeRequest {
            revision: 7,
            ..req("/p/1", "")
        });
        assert_eq!(future.unwrap_err().code(), "E_FUTURE_REV");
        assert_eq!(store.range(&req("", "")).unwrap_err(), StoreError::EmptyKey);
    }
}

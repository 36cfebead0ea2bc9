use std::collections::BTreeMap;
use std::ops::Bound;

use crate::{KeyValue, RangeRequest, RangeResponse, StoreError};

/// `DefaultMaxRequestBytes`, 1.5 MiB — etcd server/embed/config.go.
pub const MAX_REQUEST_BYTES: usize = 1536 * 1024;

/// One change to a key, kept until compaction.
#[derive(Debug, Clone)]
struct Version {
    revision: i64,
    create_revision: i64,
    version: i64,
    value: Vec<u8>,
}

/// The MVCC store: an ordered index of keys, each with its list of versions.
#[derive(Debug)]
pub struct Store {
    /// Starts at 1 like etcd (`kvstore.go` currentRev), so the first write is revision 2.
    current_revision: i64,
    compact_revision: i64,
    keys: BTreeMap<Vec<u8>, Vec<Version>>,
}

impl Default for Store {
    fn default() -> Self {
        Self::new()
    }
}

impl Store {
    pub fn new() -> Self {
        Store {
            current_revision: 1,
            compact_revision: -1,
            keys: BTreeMap::new(),
        }
    }

    pub fn current_revision(&self) -> i64 {
        self.current_revision
    }

    /// Writes `value` at `key` in a new revision and returns the stored key-value.
    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<KeyValue, StoreError> {
        if key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        if key.len() + value.len() > MAX_REQUEST_BYTES {
            return Err(StoreError::RequestTooLarge);
        }
        let revision = self.current_revision + 1;
        let history = self.keys.entry(key.to_vec()).or_default();
        let (create_revision, version) = match history.last() {
            Some(prev) => (prev.create_revision, prev.version + 1),
            None => (revision, 1),
        };
        history.push(Version {
            revision,
            create_revision,
            version,
            value: value.to_vec(),
        });
        self.current_revision = revision;
        Ok(KeyValue {
            key: key.to_vec(),
            create_revision,
            mod_revision: revision,
            version,
            value: value.to_vec(),
        })
    }

    /// Reads the keys of `[key, range_end)` as they were at `revision`.
    pub fn range(&self, request: &RangeRequest) -> Result<RangeResponse, StoreError> {
        if request.key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        let at = if request.revision <= 0 {
            self.current_revision
        } else {
            request.revision
        };
        if at > self.current_revision {
            return Err(StoreError::FutureRevision {
                current_revision: self.current_revision,
            });
        }
        if at < self.compact_revision {
            return Err(StoreError::Compacted {
                compact_revision: self.compact_revision,
            });
        }
        let mut response = RangeResponse {
            revision: self.current_revision,
            ..RangeResponse::default()
        };
        let Some(bounds) = bounds(&request.key, &request.range_end) else {
            return Ok(response);
        };
        for (key, history) in self.keys.range::<[u8], _>(bounds) {
            let Some(found) = history.iter().rev().find(|v| v.revision <= at) else {
                continue;
            };
            response.count += 1;
            if request.limit != 0 && response.kvs.len() == request.limit {
                response.more = true;
                continue;
            }
            response.kvs.push(KeyValue {
                key: key.clone(),
                create_revision: found.create_revision,
                mod_revision: found.revision,
                version: found.version,
                value: found.value.clone(),
            });
        }
        Ok(response)
    }
}

type KeyBounds<'a> = (Bound<&'a [u8]>, Bound<&'a [u8]>);

/// etcd's range conventions as B-tree bounds; `None` for an end before the start (an empty range,
/// as etcd answers it).
fn bounds<'a>(key: &'a [u8], range_end: &'a [u8]) -> Option<KeyBounds<'a>> {
    match range_end {
        [] => Some((Bound::Included(key), Bound::Included(key))),
        [0] => Some((Bound::Included(key), Bound::Unbounded)),
        end if end < key => None,
        end => Some((Bound::Included(key), Bound::Excluded(end))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(store: &Store, key: &str, end: &str, revision: i64) -> RangeResponse {
        store
            .range(&RangeRequest {
                key: key.into(),
                range_end: end.into(),
                revision,
                limit: 0,
            })
            .unwrap()
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
    }

    #[test]
    fn reads_at_a_past_revision() {
        let mut store = Store::new();
        store.put(b"/a", b"1").unwrap();
        store.put(b"/a", b"2").unwrap();
        assert_eq!(range(&store, "/a", "", 2).kvs[0].value, b"1");
        assert_eq!(range(&store, "/a", "", 0).kvs[0].value, b"2");
        let historical = range(&store, "/a", "", 2);
        assert_eq!(historical.revision, 3, "header revision is the current one");
        assert_eq!(range(&store, "/a", "", 1).count, 0);
    }

    #[test]
    fn prefix_range_with_limit_counts_everything() {
        let mut store = Store::new();
        for key in ["/p/1", "/p/2", "/p/3", "/q/1"] {
            store.put(key.as_bytes(), b"v").unwrap();
        }
        let response = store
            .range(&RangeRequest {
                key: b"/p/".to_vec(),
                range_end: b"/p0".to_vec(),
                revision: 0,
                limit: 2,
            })
            .unwrap();
        assert_eq!(response.kvs.len(), 2);
        assert_eq!((response.count, response.more), (3, true));
        assert_eq!(range(&store, "\0", "\0", 0).count, 4);
        assert_eq!(range(&store, "/p/2", "\0", 0).count, 3);
        assert_eq!(
            range(&store, "/q", "/p", 0).count,
            0,
            "an end before the start is empty"
        );
    }

    #[test]
    fn bad_input_changes_nothing() {
        let mut store = Store::new();
        store.put(b"/a", b"1").unwrap();
        assert_eq!(store.put(b"", b"v"), Err(StoreError::EmptyKey));
        let big = vec![0u8; MAX_REQUEST_BYTES];
        assert_eq!(store.put(b"/a", &big), Err(StoreError::RequestTooLarge));
        let future = store.range(&RangeRequest {
            key: b"/a".to_vec(),
            revision: 9,
            ..RangeRequest::default()
        });
        assert_eq!(
            future.unwrap_err().to_string(),
            "mvcc: required revision is a future revision"
        );
        assert_eq!(store.current_revision(), 2);
        assert_eq!(range(&store, "/a", "", 0).kvs[0].value, b"1");
    }
}

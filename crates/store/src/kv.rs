/// One key at one revision, as etcd's `mvccpb.KeyValue`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyValue {
    pub key: Vec<u8>,
    /// Revision of the put that created the key in its current life.
    pub create_revision: i64,
    /// Revision of the last change to the key.
    pub mod_revision: i64,
    /// Number of puts since the key was created; a delete resets it to 0.
    pub version: i64,
    pub value: Vec<u8>,
}

/// A read of `[key, range_end)` (etcd's conventions: empty end = one key, `"\0"` = to the end).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeRequest {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    /// Revision to read at; 0 or less reads the latest.
    pub revision: i64,
    /// Most keys to return; 0 means no limit.
    pub limit: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeResponse {
    pub kvs: Vec<KeyValue>,
    /// True when `limit` cut keys off.
    pub more: bool,
    /// All keys in the range at that revision, whatever the limit.
    pub count: usize,
    /// The store's current revision (etcd's header revision, even for a historical read).
    pub revision: i64,
}

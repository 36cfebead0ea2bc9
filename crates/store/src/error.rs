use std::fmt;

/// Every failure of the store, each with a stable code and etcd's own message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// `rpctypes.ErrEmptyKey`.
    EmptyKey,
    /// `rpctypes.ErrRequestTooLarge`: over `MAX_REQUEST_BYTES`.
    RequestTooLarge,
    /// `mvcc.ErrCompacted`: the revision asked for is older than the compaction point.
    Compacted { compact_revision: i64 },
    /// `mvcc.ErrFutureRev`: the revision asked for has not happened yet.
    FutureRevision { current_revision: i64 },
}

impl StoreError {
    /// The stable code callers branch on; never the message text.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::EmptyKey => "E_EMPTY_KEY",
            StoreError::RequestTooLarge => "E_REQUEST_TOO_LARGE",
            StoreError::Compacted { .. } => "E_COMPACTED",
            StoreError::FutureRevision { .. } => "E_FUTURE_REV",
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Byte for byte etcd's strings: api/v3rpc/rpctypes/error.go, server/storage/mvcc/kvstore.go.
        f.write_str(match self {
            StoreError::EmptyKey => "etcdserver: key is not provided",
            StoreError::RequestTooLarge => "etcdserver: request is too large",
            StoreError::Compacted { .. } => "mvcc: required revision has been compacted",
            StoreError::FutureRevision { .. } => "mvcc: required revision is a future revision",
        })
    }
}

impl std::error::Error for StoreError {}

use std::fmt;

/// Every failure of the store, each with a stable code and etcd's own message.
///
/// Callers branch on [`StoreError::code`], never on the message text. A failed call leaves the
/// store's contents, revision and WAL untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// `rpctypes.ErrGRPCEmptyKey`.
    EmptyKey,
    /// `rpctypes.ErrGRPCRequestTooLarge`: over `MAX_REQUEST_BYTES`.
    RequestTooLarge,
    /// `mvcc.ErrCompacted`: the revision asked for is older than the compaction point.
    Compacted { compact_revision: i64 },
    /// `mvcc.ErrFutureRev`: the revision asked for has not happened yet.
    FutureRevision { current_revision: i64 },
    /// `rpctypes.ErrGRPCKeyNotFound`: `ignore_value`/`ignore_lease` on a missing key.
    KeyNotFound,
    /// `rpctypes.ErrGRPCValueProvided`: `ignore_value` together with a value.
    ValueProvided,
    /// `rpctypes.ErrGRPCLeaseProvided`: `ignore_lease` together with a lease.
    LeaseProvided,
    /// `rpctypes.ErrGRPCTooManyOps`: more than `MAX_TXN_OPS` in one list of a txn.
    TooManyOps,
    /// `rpctypes.ErrGRPCDuplicateKey`: a txn writes one key twice.
    DuplicateKey,
    /// `rpctypes.ErrGRPCLeaseNotFound`.
    LeaseNotFound,
    /// `rpctypes.ErrGRPCLeaseExist`.
    LeaseExists,
    /// `rpctypes.ErrGRPCLeaseTTLTooLarge`: over `MAX_LEASE_TTL`.
    LeaseTtlTooLarge,
    /// `rpctypes.ErrGRPCNoSpace`: the value arena is full.
    NoSpace,
    /// `mvcc.ErrEmptyWatcherRange`: a watch with `key >= range_end`.
    EmptyWatcherRange,
    /// `mvcc.ErrWatcherNotExist`: cancel of an unknown watch id.
    WatcherNotExist,
    /// `mvcc.ErrWatcherDuplicateID`.
    DuplicateWatchId,
    /// Snapshot bytes that do not decode (kubewasm's own; etcd has no equivalent).
    CorruptSnapshot { reason: &'static str },
    /// A WAL record that does not decode or apply (kubewasm's own).
    CorruptWal { reason: &'static str },
}

impl StoreError {
    /// The stable code callers branch on; never the message text.
    pub fn code(&self) -> &'static str {
        match self {
            StoreError::EmptyKey => "E_EMPTY_KEY",
            StoreError::RequestTooLarge => "E_REQUEST_TOO_LARGE",
            StoreError::Compacted { .. } => "E_COMPACTED",
            StoreError::FutureRevision { .. } => "E_FUTURE_REV",
            StoreError::KeyNotFound => "E_KEY_NOT_FOUND",
            StoreError::ValueProvided => "E_VALUE_PROVIDED",
            StoreError::LeaseProvided => "E_LEASE_PROVIDED",
            StoreError::TooManyOps => "E_TOO_MANY_OPS",
            StoreError::DuplicateKey => "E_DUPLICATE_KEY",
            StoreError::LeaseNotFound => "E_LEASE_NOT_FOUND",
            StoreError::LeaseExists => "E_LEASE_EXISTS",
            StoreError::LeaseTtlTooLarge => "E_LEASE_TTL_TOO_LARGE",
            StoreError::NoSpace => "E_NO_SPACE",
            StoreError::EmptyWatcherRange => "E_EMPTY_WATCHER_RANGE",
            StoreError::WatcherNotExist => "E_WATCHER_NOT_EXIST",
            StoreError::DuplicateWatchId => "E_DUPLICATE_WATCH_ID",
            StoreError::CorruptSnapshot { .. } => "E_CORRUPT_SNAPSHOT",
            StoreError::CorruptWal { .. } => "E_CORRUPT_WAL",
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Byte for byte etcd's strings: api/v3rpc/rpctypes/error.go,
        // server/storage/mvcc/kvstore.go, server/storage/mvcc/watcher.go.
        f.write_str(match self {
            StoreError::EmptyKey => "etcdserver: key is not provided",
            StoreError::RequestTooLarge => "etcdserver: request is too large",
            StoreError::Compacted { .. } => "mvcc: required revision has been compacted",
            StoreError::FutureRevision { .. } => "mvcc: required revision is a future revision",
            StoreError::KeyNotFound => "etcdserver: key not found",
            StoreError::ValueProvided => "etcdserver: value is provided",
            StoreError::LeaseProvided => "etcdserver: lease is provided",
            StoreError::TooManyOps => "etcdserver: too many operations in txn request",
            StoreError::DuplicateKey => "etcdserver: duplicate key given in txn request",
            StoreError::LeaseNotFound => "etcdserver: requested lease not found",
            StoreError::LeaseExists => "etcdserver: lease already exists",
            StoreError::LeaseTtlTooLarge => "etcdserver: too large lease TTL",
            StoreError::NoSpace => "etcdserver: mvcc: database space exceeded",
            StoreError::EmptyWatcherRange => "mvcc: watcher range is empty",
            StoreError::WatcherNotExist => "mvcc: watcher does not exist",
            StoreError::DuplicateWatchId => "mvcc: duplicate watch ID provided on the WatchStream",
            StoreError::CorruptSnapshot { reason } => {
                return write!(f, "kubewasm: corrupt snapshot: {reason}");
            }
            StoreError::CorruptWal { reason } => {
                return write!(f, "kubewasm: corrupt wal record: {reason}");
            }
        })
    }
}

impl std::error::Error for StoreError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_messages_are_etcds() {
        let all = [
            StoreError::EmptyKey,
            StoreError::RequestTooLarge,
            StoreError::Compacted {
                compact_revision: 1,
            },
            StoreError::FutureRevision {
                current_revision: 1,
            },
            StoreError::KeyNotFound,
            StoreError::ValueProvided,
            StoreError::LeaseProvided,
            StoreError::TooManyOps,
            StoreError::DuplicateKey,
            StoreError::LeaseNotFound,
            StoreError::LeaseExists,
            StoreError::LeaseTtlTooLarge,
            StoreError::NoSpace,
            StoreError::EmptyWatcherRange,
            StoreError::WatcherNotExist,
            StoreError::DuplicateWatchId,
            StoreError::CorruptSnapshot { reason: "x" },
            StoreError::CorruptWal { reason: "x" },
        ];
        let mut codes: Vec<_> = all.iter().map(StoreError::code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
        assert!(all.iter().all(|e| e.code().starts_with("E_")));
        assert_eq!(
            StoreError::DuplicateKey.to_string(),
            "etcdserver: duplicate key given in txn request"
        );
        assert_eq!(
            StoreError::NoSpace.to_string(),
            "etcdserver: mvcc: database space exceeded"
        );
    }
}

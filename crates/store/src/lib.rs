//! An etcd v3-semantics MVCC key-value store: every change gets a revision, every key keeps its
//! history until compaction, reads can be made at any retained revision, and watches replay
//! history and follow live changes with bounded memory per watcher.
//!
//! Pure Rust, no JavaScript: `crates/wasm` exposes it to TypeScript. Semantics follow etcd's
//! `server/storage/mvcc` (see `docs/architecture.md` and `shared/reference/store.md`).
//! Durability is split: this crate produces WAL records and snapshots as bytes; the caller
//! writes and reads files.

mod arena;
mod chunked;
mod codec;
mod compact;
mod crc32;
mod error;
mod feed;
mod history;
mod key_index;
mod kv;
mod lease;
mod range;
mod revision;
mod snapshot;
mod store;
mod txn;
mod view;
mod wal;
mod watch;

pub use codec::{
    decode_range_response, decode_watch_responses, encode_range_response, encode_watch_responses,
    encode_watch_responses_into,
};
pub use crc32::crc32;
pub use error::StoreError;
pub use kv::{Event, EventType, KeyValue};
pub use lease::{
    LeaseGrantResponse, LeaseTimeToLive, LEASE_REVOKE_RATE, MAX_LEASE_TTL, MIN_LEASE_TTL,
};
pub use range::{RangeRequest, RangeResponse, SortOrder, SortTarget};
pub use revision::Revision;
pub use store::{
    DeleteRangeRequest, DeleteRangeResponse, PutOptions, PutResponse, Store, StoreOptions,
    MAX_REQUEST_BYTES,
};
pub use txn::{
    Compare, CompareResult, CompareTarget, PutRequest, RequestOp, ResponseOp, TxnRequest,
    TxnResponse, MAX_TXN_OPS,
};
pub use wal::{decode_wal, WalChange, WalRecord, WalReplay, WalTail, WalTailReason};
pub use watch::{
    WatchId, WatchRequest, WatchResponse, WatchState, DEFAULT_WATCH_BUFFER_EVENTS,
    PROGRESS_WATCH_ID,
};

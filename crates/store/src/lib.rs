//! An etcd v3-style MVCC key-value store: every change gets a revision, every key keeps its
//! history until compaction, and reads can be made at any retained revision.
//!
//! Pure Rust, no JavaScript: `crates/wasm` exposes it to TypeScript.
//! Semantics follow etcd's `server/storage/mvcc` (see `docs/architecture.md`).

mod error;
mod kv;
mod store;

pub use error::StoreError;
pub use kv::{KeyValue, RangeRequest, RangeResponse};
pub use store::{Store, MAX_REQUEST_BYTES};

use kubewasm_store::{
    encode_range_response, Compare, CompareResult, CompareTarget, DeleteRangeRequest, PutOptions,
    PutRequest, RangeRequest, RequestOp, Store, StoreOptions, TxnRequest, WalTailReason,
    WatchRequest,
};
use wasm_bindgen::prelude::*;

use crate::error::{to_js, BindingError, IntoJs};

/// An MVCC store living in wasm memory (etcd v3 semantics). Free it with `free()`.
/// Key-value lists and watch batches cross as one `Uint8Array` each, in the layout documented in
/// `crates/store/src/codec.rs`.
#[wasm_bindgen(js_name = "MvccStore")]
pub struct MvccStore {
    inner: Store,
}

/// What a WAL replay did: records applied and skipped, the bytes to keep, and the bad tail.
#[wasm_bindgen(getter_with_clone)]
pub struct WalReplayResult {
    pub applied: u32,
    pub skipped: u32,
    /// Length of the intact prefix of the log: truncate the file here.
    #[wasm_bindgen(js_name = "validLength")]
    pub valid_length: u32,
    /// Empty when the whole log was intact; else `truncated`, `checksum`, `malformed` or `rejected`.
    #[wasm_bindgen(js_name = "tailReason")]
    pub tail_reason: String,
}

fn bad_offsets() -> JsValue {
    to_js(BindingError {
        code: "E_BAD_OFFSETS",
        message: "batch offsets are out of range or decreasing".into(),
    })
}

fn options(wal: bool, watch_buffer_events: u32) -> StoreOptions {
    StoreOptions {
        wal,
        watch_buffer_events: watch_buffer_events as usize,
        ..StoreOptions::default()
    }
}

/// `Txn If(mod_revision(key) == expected) Then(op)`: Kubernetes' OptimisticPut/Delete.
fn if_mod_revision(key: &[u8], expected: i64, op: RequestOp) -> TxnRequest {
    TxnRequest {
        compare: vec![Compare {
            key: key.to_vec(),
            range_end: Vec::new(),
            target: CompareTarget::Mod(expected),
            result: CompareResult::Equal,
        }],
        success: vec![op],
        failure: Vec::new(),
    }
}

#[wasm_bindgen(js_class = "MvccStore")]
impl MvccStore {
    /// An empty store. `wal`: record WAL bytes for `takeWal()`; `watchBufferEvents`: events a
    /// watcher may hold before it falls back to catching up from history.
    #[wasm_bindgen(constructor)]
    pub fn new(wal: bool, watch_buffer_events: u32) -> MvccStore {
        MvccStore {
            inner: Store::with_options(options(wal, watch_buffer_events)),
        }
    }

    /// A store rebuilt from `snapshot()` bytes.
    pub fn restore(
        snapshot: &[u8],
        wal: bool,
        watch_buffer_events: u32,
    ) -> Result<MvccStore, JsValue> {
        let inner =
            Store::restore_with_options(snapshot, options(wal, watch_buffer_events)).js()?;
        Ok(MvccStore { inner })
    }

    #[wasm_bindgen(getter, js_name = "currentRevision")]
    pub fn current_revision(&self) -> i64 {
        self.inner.current_revision()
    }

    #[wasm_bindgen(getter, js_name = "compactRevision")]
    pub fn compact_revision(&self) -> i64 {
        self.inner.compact_revision()
    }

    /// Writes a value (attached to `lease`, 0 = none); returns the new revision.
    pub fn put(&mut self, key: &[u8], value: &[u8], lease: i64) -> Result<i64, JsValue> {
        let options = PutOptions {
            lease,
            ..PutOptions::default()
        };
        Ok(self.inner.put_with(key, value, options).js()?.revision)
    }

    /// Sequential puts in one crossing, each its own revision: put `i` writes
    /// `keys[keyEnds[i-1]..keyEnds[i]]` = `values[valueEnds[i-1]..valueEnds[i]]`. Stops at the
    /// first failing put (the ones before it stay written). Returns the last revision.
    #[wasm_bindgen(js_name = "putMany")]
    pub fn put_many(
        &mut self,
        keys: &[u8],
        key_ends: &[u32],
        values: &[u8],
        value_ends: &[u32],
    ) -> Result<i64, JsValue> {
        let (mut key_start, mut value_start) = (0usize, 0usize);
        for (&key_end, &value_end) in key_ends.iter().zip(value_ends) {
            let (key_end, value_end) = (key_end as usize, value_end as usize);
            let key = keys.get(key_start..key_end).ok_or_else(bad_offsets)?;
            let value = values.get(value_start..value_end).ok_or_else(bad_offsets)?;
            self.inner
                .put_with(key, value, PutOptions::default())
                .js()?;
            (key_start, value_start) = (key_end, value_end);
        }
        Ok(self.inner.current_revision())
    }

    /// Puts only if the key's mod revision is `expected` (0 = absent); returns the new revision,
    /// or 0 when the compare failed.
    #[wasm_bindgen(js_name = "putIfModRevision")]
    pub fn put_if_mod_revision(
        &mut self,
        key: &[u8],
        value: &[u8],
        expected: i64,
        lease: i64,
    ) -> Result<i64, JsValue> {
        let put = RequestOp::Put(PutRequest {
            key: key.to_vec(),
            value: value.to_vec(),
            lease,
            ..PutRequest::default()
        });
        let response = self.inner.txn(&if_mod_revision(key, expected, put)).js()?;
        Ok(if response.succeeded {
            response.revision
        } else {
            0
        })
    }

    /// Deletes only if the key's mod revision is `expected`; returns the deletion's revision, or
    /// 0 when the compare failed.
    #[wasm_bindgen(js_name = "deleteIfModRevision")]
    pub fn delete_if_mod_revision(&mut self, key: &[u8], expected: i64) -> Result<i64, JsValue> {
        let delete = RequestOp::DeleteRange(DeleteRangeRequest {
            key: key.to_vec(),
            ..DeleteRangeRequest::default()
        });
        let response = self
            .inner
            .txn(&if_mod_revision(key, expected, delete))
            .js()?;
        Ok(if response.succeeded {
            response.revision
        } else {
            0
        })
    }

    /// Reads `[key, rangeEnd)` at `revision` (0 = latest): one encoded key-value list.
    pub fn range(
        &self,
        key: &[u8],
        range_end: &[u8],
        revision: i64,
        limit: u32,
        count_only: bool,
        keys_only: bool,
    ) -> Result<Vec<u8>, JsValue> {
        let response = self
            .inner
            .range(&RangeRequest {
                key: key.to_vec(),
                range_end: range_end.to_vec(),
                revision,
                limit: limit as usize,
                count_only,
                keys_only,
                ..RangeRequest::default()
            })
            .js()?;
        Ok(encode_range_response(&response))
    }

    /// Deletes every key of `[key, rangeEnd)` in one revision; returns how many were deleted.
    #[wasm_bindgen(js_name = "deleteRange")]
    pub fn delete_range(&mut self, key: &[u8], range_end: &[u8]) -> Result<u32, JsValue> {
        let response = self
            .inner
            .delete_range(&DeleteRangeRequest {
                key: key.to_vec(),
                range_end: range_end.to_vec(),
                prev_kv: false,
            })
            .js()?;
        Ok(response.deleted as u32)
    }

    /// Starts a watch on `[key, rangeEnd)` from `startRevision` (inclusive; 0 = next revision).
    #[allow(clippy::too_many_arguments)]
    pub fn watch(
        &mut self,
        key: &[u8],
        range_end: &[u8],
        start_revision: i64,
        prev_kv: bool,
        progress_notify: bool,
        no_put: bool,
        no_delete: bool,
    ) -> Result<i64, JsValue> {
        self.inner
            .watch(WatchRequest {
                key: key.to_vec(),
                range_end: range_end.to_vec(),
                start_revision,
                prev_kv,
                progress_notify,
                no_put,
                no_delete,
                watch_id: 0,
            })
            .js()
    }

    #[wasm_bindgen(js_name = "cancelWatch")]
    pub fn cancel_watch(&mut self, id: i64) -> Result<(), JsValue> {
        self.inner.cancel_watch(id).js()
    }

    /// Every pending watch response of every watcher, up to `maxEvents` events, as one buffer:
    /// each run of events once, then per response a reference to it (watchers that get the same
    /// revisions share one block; layout in `crates/store/src/codec.rs`).
    #[wasm_bindgen(js_name = "pollWatch")]
    pub fn poll_watch(&mut self, max_events: u32) -> Vec<u8> {
        self.inner.poll_watch_batch(max_events as usize)
    }

    /// True if `pollWatch` would return something (including a requested progress response).
    #[wasm_bindgen(getter, js_name = "hasWatchEvents")]
    pub fn has_watch_events(&self) -> bool {
        self.inner.has_watch_events()
    }

    /// etcd's WatchProgressRequest: a progress response once every watcher has caught up.
    #[wasm_bindgen(js_name = "requestProgress")]
    pub fn request_progress(&mut self) {
        self.inner.request_progress();
    }

    /// Periodic progress notifications to synced watchers that asked for them.
    #[wasm_bindgen(js_name = "progressTick")]
    pub fn progress_tick(&mut self) {
        self.inner.progress_tick();
    }

    pub fn compact(&mut self, revision: i64) -> Result<(), JsValue> {
        self.inner.compact(revision).js()
    }

    /// Grants a lease of `ttl` seconds from `nowMs` (`id` 0 = store picks); returns its id.
    #[wasm_bindgen(js_name = "leaseGrant")]
    pub fn lease_grant(&mut self, id: i64, ttl: i64, now_ms: f64) -> Result<i64, JsValue> {
        Ok(self.inner.lease_grant(id, ttl, now_ms as i64).js()?.id)
    }

    #[wasm_bindgen(js_name = "leaseRevoke")]
    pub fn lease_revoke(&mut self, id: i64) -> Result<i64, JsValue> {
        self.inner.lease_revoke(id).js()
    }

    /// Renews a lease from `nowMs`; returns its TTL in seconds.
    #[wasm_bindgen(js_name = "leaseKeepAlive")]
    pub fn lease_keep_alive(&mut self, id: i64, now_ms: f64) -> Result<i64, JsValue> {
        self.inner.lease_keep_alive(id, now_ms as i64).js()
    }

    /// Restarts every lease's TTL from `nowMs` (etcd's Promote), so that leases do not expire
    /// for the time the store was down.
    #[wasm_bindgen(js_name = "leaseRefreshAll")]
    pub fn lease_refresh_all(&mut self, now_ms: f64) {
        self.inner.lease_refresh_all(now_ms as i64);
    }

    /// Revokes up to `max` leases due at `nowMs`; returns their ids.
    #[wasm_bindgen(js_name = "expireLeases")]
    pub fn expire_leases(&mut self, now_ms: f64, max: u32) -> Vec<i64> {
        self.inner.expire_leases(now_ms as i64, max as usize)
    }

    /// The earliest lease deadline in ms, or -1 without leases.
    #[wasm_bindgen(getter, js_name = "nextLeaseDeadline")]
    pub fn next_lease_deadline(&self) -> f64 {
        self.inner
            .next_lease_deadline()
            .map_or(-1.0, |ms| ms as f64)
    }

    /// The WAL records written since the last call (empty without `wal`).
    #[wasm_bindgen(js_name = "takeWal")]
    pub fn take_wal(&mut self) -> Vec<u8> {
        self.inner.take_wal()
    }

    /// The whole store as bytes (`MvccStore.restore` reads them back).
    pub fn snapshot(&self) -> Vec<u8> {
        self.inner.snapshot()
    }

    /// Applies a WAL file's bytes, stopping at the first torn or corrupt record.
    #[wasm_bindgen(js_name = "replayWal")]
    pub fn replay_wal(&mut self, bytes: &[u8]) -> WalReplayResult {
        let replay = self.inner.replay_wal(bytes);
        WalReplayResult {
            applied: replay.applied as u32,
            skipped: replay.skipped as u32,
            valid_length: replay.valid_len as u32,
            tail_reason: match replay.tail.map(|t| t.reason) {
                None => String::new(),
                Some(WalTailReason::Truncated) => "truncated".into(),
                Some(WalTailReason::ChecksumMismatch) => "checksum".into(),
                Some(WalTailReason::Malformed) => "malformed".into(),
                Some(WalTailReason::Rejected) => "rejected".into(),
            },
        }
    }

    /// Estimated bytes of the key index (keys, per-version metadata, lease index).
    #[wasm_bindgen(getter, js_name = "indexBytes")]
    pub fn index_bytes(&self) -> f64 {
        self.inner.index_bytes() as f64
    }

    #[wasm_bindgen(getter, js_name = "keyCount")]
    pub fn key_count(&self) -> u32 {
        self.inner.key_count() as u32
    }

    #[wasm_bindgen(getter, js_name = "versionCount")]
    pub fn version_count(&self) -> u32 {
        self.inner.version_count() as u32
    }
}

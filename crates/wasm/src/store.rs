use kubewasm_store::{RangeRequest, Store};
use wasm_bindgen::prelude::*;

use crate::error::IntoJs;

/// An MVCC store living in wasm memory. Free it with `free()`.
#[wasm_bindgen(js_name = "MvccStore")]
pub struct MvccStore {
    inner: Store,
}

/// One page of a range read, in columns: keys and values as one byte buffer each plus offsets,
/// so that many key-values cross the boundary in a handful of arrays.
#[wasm_bindgen(getter_with_clone)]
pub struct RangePage {
    /// Current store revision (etcd's header revision).
    pub revision: i64,
    pub count: u32,
    pub more: bool,
    /// Concatenated keys; key `i` is `keys[keyEnds[i-1]..keyEnds[i]]`.
    pub keys: Vec<u8>,
    #[wasm_bindgen(js_name = "keyEnds")]
    pub key_ends: Vec<u32>,
    pub values: Vec<u8>,
    #[wasm_bindgen(js_name = "valueEnds")]
    pub value_ends: Vec<u32>,
    /// Per key-value: create revision, mod revision, version.
    #[wasm_bindgen(js_name = "createRevisions")]
    pub create_revisions: Vec<i64>,
    #[wasm_bindgen(js_name = "modRevisions")]
    pub mod_revisions: Vec<i64>,
    pub versions: Vec<i64>,
}

#[wasm_bindgen(js_class = "MvccStore")]
impl MvccStore {
    #[wasm_bindgen(constructor)]
    pub fn new() -> MvccStore {
        MvccStore {
            inner: Store::new(),
        }
    }

    #[wasm_bindgen(getter, js_name = "currentRevision")]
    pub fn current_revision(&self) -> i64 {
        self.inner.current_revision()
    }

    /// Writes a value; returns the new revision.
    pub fn put(&mut self, key: &[u8], value: &[u8]) -> Result<i64, JsValue> {
        Ok(self.inner.put(key, value).js()?.mod_revision)
    }

    /// Reads `[key, rangeEnd)` at `revision` (0 = latest), at most `limit` keys (0 = all).
    pub fn range(
        &self,
        key: &[u8],
        range_end: &[u8],
        revision: i64,
        limit: u32,
    ) -> Result<RangePage, JsValue> {
        let response = self
            .inner
            .range(&RangeRequest {
                key: key.to_vec(),
                range_end: range_end.to_vec(),
                revision,
                limit: limit as usize,
            })
            .js()?;
        let mut page = RangePage {
            revision: response.revision,
            count: response.count as u32,
            more: response.more,
            keys: Vec::new(),
            key_ends: Vec::with_capacity(response.kvs.len()),
            values: Vec::new(),
            value_ends: Vec::with_capacity(response.kvs.len()),
            create_revisions: Vec::with_capacity(response.kvs.len()),
            mod_revisions: Vec::with_capacity(response.kvs.len()),
            versions: Vec::with_capacity(response.kvs.len()),
        };
        for kv in response.kvs {
            page.keys.extend_from_slice(&kv.key);
            page.key_ends.push(page.keys.len() as u32);
            page.values.extend_from_slice(&kv.value);
            page.value_ends.push(page.values.len() as u32);
            page.create_revisions.push(kv.create_revision);
            page.mod_revisions.push(kv.mod_revision);
            page.versions.push(kv.version);
        }
        Ok(page)
    }
}

impl Default for MvccStore {
    fn default() -> Self {
        Self::new()
    }
}

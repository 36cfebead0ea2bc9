//! A compact binary encoding of watch batches and key-value lists, so the wasm binding hands
//! JavaScript one `Uint8Array` per batch instead of one object per event.
//!
//! Byte layout (all integers little-endian; `bytes` = `len u32` then `len` bytes):
//! ```text
//! watch batch := count u32 | count × response
//! response    := watch_id i64 | revision i64 | compact_revision i64
//!                | flags u8 (1 = created, 2 = canceled)
//!                | cancel_reason bytes (UTF-8) | n_events u32 | n_events × event
//! event       := type u8 (0 = PUT, 1 = DELETE) | has_prev u8 (0 or 1) | kv | [kv if has_prev]
//! kv          := key bytes | create_revision i64 | mod_revision i64 | version i64 | lease i64
//!                | value bytes
//! kv list     := count u32 | more u8 | total u64 | revision i64 | count × kv
//! ```
//! 64-bit revisions stay 64-bit (read them as `BigInt` with `DataView.getBigInt64(o, true)`).

use crate::{Event, EventType, KeyValue, RangeResponse, WatchResponse};

const FLAG_CREATED: u8 = 1;
const FLAG_CANCELED: u8 = 2;

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn put_kv(out: &mut Vec<u8>, kv: &KeyValue) {
    put_bytes(out, &kv.key);
    for n in [kv.create_revision, kv.mod_revision, kv.version, kv.lease] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    put_bytes(out, &kv.value);
}

/// Encodes a batch of watch responses (e.g. the result of `Store::poll_watch_events`).
pub fn encode_watch_responses(responses: &[WatchResponse]) -> Vec<u8> {
    let mut out = Vec::new();
    encode_watch_responses_into(responses, &mut out);
    out
}

/// As `encode_watch_responses`, appending to `out`.
pub fn encode_watch_responses_into(responses: &[WatchResponse], out: &mut Vec<u8>) {
    out.extend_from_slice(&(responses.len() as u32).to_le_bytes());
    for r in responses {
        for n in [r.watch_id, r.revision, r.compact_revision] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        let flags =
            if r.created { FLAG_CREATED } else { 0 } | if r.canceled { FLAG_CANCELED } else { 0 };
        out.push(flags);
        put_bytes(out, r.cancel_reason.as_bytes());
        out.extend_from_slice(&(r.events.len() as u32).to_le_bytes());
        for e in &r.events {
            out.push(match e.kind {
                EventType::Put => 0,
                EventType::Delete => 1,
            });
            out.push(u8::from(e.prev_kv.is_some()));
            put_kv(out, &e.kv);
            if let Some(prev) = &e.prev_kv {
                put_kv(out, prev);
            }
        }
    }
}

/// Encodes a range result's key-values with its `more`, `count` and header revision.
pub fn encode_range_response(response: &RangeResponse) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(response.kvs.len() as u32).to_le_bytes());
    out.push(u8::from(response.more));
    out.extend_from_slice(&(response.count as u64).to_le_bytes());
    out.extend_from_slice(&response.revision.to_le_bytes());
    for kv in &response.kvs {
        put_kv(&mut out, kv);
    }
    out
}

/// Decodes `encode_watch_responses` output; `None` if the bytes are malformed.
pub fn decode_watch_responses(bytes: &[u8]) -> Option<Vec<WatchResponse>> {
    let mut r = Reader::new(bytes);
    let count = r.u32()? as usize;
    let mut responses = Vec::with_capacity(count.min(r.remaining()));
    for _ in 0..count {
        let watch_id = r.i64()?;
        let revision = r.i64()?;
        let compact_revision = r.i64()?;
        let flags = r.u8()?;
        let cancel_reason = String::from_utf8(r.bytes()?.to_vec()).ok()?;
        let n = r.u32()? as usize;
        let mut events = Vec::with_capacity(n.min(r.remaining()));
        for _ in 0..n {
            let kind = match r.u8()? {
                0 => EventType::Put,
                1 => EventType::Delete,
                _ => return None,
            };
            let has_prev = r.u8()?;
            let kv = read_kv(&mut r)?;
            let prev_kv = match has_prev {
                0 => None,
                1 => Some(read_kv(&mut r)?),
                _ => return None,
            };
            events.push(Event { kind, kv, prev_kv });
        }
        responses.push(WatchResponse {
            watch_id,
            revision,
            created: flags & FLAG_CREATED != 0,
            canceled: flags & FLAG_CANCELED != 0,
            compact_revision,
            cancel_reason,
            events,
        });
    }
    r.is_empty().then_some(responses)
}

/// Decodes `encode_range_response` output.
pub fn decode_range_response(bytes: &[u8]) -> Option<RangeResponse> {
    let mut r = Reader::new(bytes);
    let n = r.u32()? as usize;
    let more = r.u8()? != 0;
    let count = usize::try_from(r.u64()?).ok()?;
    let revision = r.i64()?;
    let mut kvs = Vec::with_capacity(n.min(r.remaining()));
    for _ in 0..n {
        kvs.push(read_kv(&mut r)?);
    }
    r.is_empty().then_some(RangeResponse {
        kvs,
        more,
        count,
        revision,
    })
}

fn read_kv(r: &mut Reader<'_>) -> Option<KeyValue> {
    Some(KeyValue {
        key: r.bytes()?.to_vec(),
        create_revision: r.i64()?,
        mod_revision: r.i64()?,
        version: r.i64()?,
        lease: r.i64()?,
        value: r.bytes()?.to_vec(),
    })
}

/// A bounds-checked little-endian reader over untrusted bytes: every read is `None` past the
/// end, never a panic.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes }
    }

    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.bytes.len() {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    pub fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }
    pub fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.array()?))
    }
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    pub fn remaining(&self) -> usize {
        self.bytes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(key: &str, rev: i64) -> KeyValue {
        KeyValue {
            key: key.into(),
            create_revision: 2,
            mod_revision: rev,
            version: 3,
            value: b"v".to_vec(),
            lease: 9,
        }
    }

    #[test]
    fn watch_batches_round_trip() {
        let responses = vec![
            WatchResponse {
                watch_id: 0,
                revision: 1,
                created: true,
                ..WatchResponse::default()
            },
            WatchResponse {
                watch_id: 3,
                revision: 1 << 40,
                events: vec![
                    Event {
                        kind: EventType::Put,
                        kv: kv("/a", 5),
                        prev_kv: Some(kv("/a", 4)),
                    },
                    Event {
                        kind: EventType::Delete,
                        kv: KeyValue {
                            key: b"/b".to_vec(),
                            mod_revision: 5,
                            ..KeyValue::default()
                        },
                        prev_kv: None,
                    },
                ],
                ..WatchResponse::default()
            },
            WatchResponse {
                watch_id: 4,
                canceled: true,
                compact_revision: 7,
                cancel_reason: "why".into(),
                ..WatchResponse::default()
            },
        ];
        let bytes = encode_watch_responses(&responses);
        assert_eq!(decode_watch_responses(&bytes), Some(responses));
        for cut in 0..bytes.len() {
            assert_eq!(
                decode_watch_responses(&bytes[..cut]),
                None,
                "truncated at {cut}"
            );
        }
        // The first response's layout, byte for byte.
        assert_eq!(&bytes[..4], &3u32.to_le_bytes());
        assert_eq!(bytes[4 + 24], FLAG_CREATED);
    }

    #[test]
    fn range_responses_round_trip() {
        let response = RangeResponse {
            kvs: vec![kv("/a", 4), kv("/b", 5)],
            more: true,
            count: 10,
            revision: 6,
        };
        let bytes = encode_range_response(&response);
        assert_eq!(decode_range_response(&bytes), Some(response));
        assert_eq!(decode_range_response(&bytes[..bytes.len() - 1]), None);
    }
}

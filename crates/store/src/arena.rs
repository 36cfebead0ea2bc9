//! One arena for every stored value: values are appended to 4 MiB chunks, so a put costs a
//! memcpy instead of an allocation, and growth never copies old values (no doubling spikes,
//! which matter in a 4 GiB wasm memory).
//!
//! An entry is `[lease i64 LE if leased][value bytes]`; its handle is a `u32` packing the chunk
//! number and the offset in it, so the arena holds at most 4 GiB ([`StoreError::NoSpace`] then).

use crate::StoreError;

const CHUNK_BITS: u32 = 22;
/// Bytes per chunk; larger than any single entry (`MAX_REQUEST_BYTES` + 8).
pub(crate) const CHUNK_SIZE: usize = 1 << CHUNK_BITS;
/// Chunks addressable by a `u32` handle.
const MAX_CHUNKS: usize = 1 << (32 - CHUNK_BITS);

#[derive(Debug, Default, Clone)]
pub(crate) struct Arena {
    chunks: Vec<Vec<u8>>,
    /// Bytes referenced by live history entries (the rest is garbage awaiting a rebuild).
    live: usize,
}

impl Arena {
    /// True if `bytes` more (in entries each ≤ `CHUNK_SIZE`) are sure to fit.
    pub fn fits(&self, bytes: usize) -> bool {
        let room_here = self
            .chunks
            .last()
            .map_or(0, |c| CHUNK_SIZE - c.len().min(CHUNK_SIZE));
        // Spilling into a fresh chunk wastes at most the old chunk's tail, and a request's
        // entries total less than one chunk, so one free chunk is always enough.
        bytes <= room_here || (self.chunks.len() < MAX_CHUNKS && bytes <= CHUNK_SIZE)
    }

    /// Appends an entry and returns its handle.
    pub fn push(&mut self, lease: Option<i64>, value: &[u8]) -> Result<u32, StoreError> {
        let need = value.len() + if lease.is_some() { 8 } else { 0 };
        if need > CHUNK_SIZE {
            return Err(StoreError::RequestTooLarge);
        }
        let start_new = match self.chunks.last() {
            Some(c) => c.len() + need > CHUNK_SIZE,
            None => true,
        };
        if start_new {
            if self.chunks.len() >= MAX_CHUNKS {
                return Err(StoreError::NoSpace);
            }
            self.chunks.push(Vec::new());
        }
        let index = self.chunks.len() - 1;
        let Some(chunk) = self.chunks.last_mut() else {
            return Err(StoreError::NoSpace);
        };
        if chunk.capacity() - chunk.len() < need {
            // Grow by doubling but never past the chunk size, so a chunk is allocated once
            // at most at 4 MiB.
            let target = (chunk.capacity() * 2)
                .max(chunk.len() + need)
                .clamp(256, CHUNK_SIZE);
            chunk.reserve_exact(target - chunk.len());
        }
        let offset = chunk.len();
        if let Some(lease) = lease {
            chunk.extend_from_slice(&lease.to_le_bytes());
        }
        chunk.extend_from_slice(value);
        self.live += need;
        Ok(((index as u32) << CHUNK_BITS) | offset as u32)
    }

    /// The `len` bytes at `handle + skip`; empty if out of bounds (never panics).
    pub fn get(&self, handle: u32, skip: usize, len: usize) -> &[u8] {
        let chunk = (handle >> CHUNK_BITS) as usize;
        let start = (handle & ((1 << CHUNK_BITS) - 1)) as usize + skip;
        self.chunks
            .get(chunk)
            .and_then(|c| c.get(start..start + len))
            .unwrap_or(&[])
    }

    pub fn release(&mut self, bytes: usize) {
        self.live = self.live.saturating_sub(bytes);
    }

    /// Bytes allocated (capacity), live or not.
    pub fn allocated(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum()
    }

    pub fn used(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    pub fn live(&self) -> usize {
        self.live
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_spill_into_new_chunks() {
        let mut arena = Arena::default();
        let a = arena.push(Some(7), b"hello").unwrap();
        assert_eq!(arena.get(a, 0, 8), 7i64.to_le_bytes());
        assert_eq!(arena.get(a, 8, 5), b"hello");
        let big = vec![1u8; 1536 * 1024];
        let handles: Vec<u32> = (0..4).map(|_| arena.push(None, &big).unwrap()).collect();
        assert_eq!(arena.get(handles[3], 0, big.len()), &big[..]);
        assert!(arena.chunks.len() >= 2);
        assert!(arena.chunks.iter().all(|c| c.capacity() <= CHUNK_SIZE));
        assert_eq!(
            arena.get(u32::MAX, 0, 4),
            b"",
            "out of bounds reads are empty"
        );
        assert!(arena.fits(1000));
    }
}

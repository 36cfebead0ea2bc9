//! A vector stored in fixed-size chunks: growth never copies old elements and never leaves
//! more than one chunk of unused capacity (a plain `Vec` doubles, wasting up to half), which
//! keeps the per-key and per-version memory honest at any size.

#[derive(Debug, Clone)]
pub(crate) struct Chunked<T, const N: usize> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T, const N: usize> Default for Chunked<T, N> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T, const N: usize> Chunked<T, N> {
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends and returns the new element's index. The first chunk starts small and doubles
    /// up to `N` (small stores stay small); later chunks are allocated at `N` once.
    pub fn push(&mut self, value: T) -> usize {
        let index = self.len;
        match self.chunks.last_mut() {
            Some(chunk) if chunk.len() < N => {
                if chunk.len() == chunk.capacity() {
                    let target = (chunk.capacity() * 2).clamp(8, N);
                    chunk.reserve_exact(target - chunk.len());
                }
                chunk.push(value);
            }
            _ => {
                let mut chunk =
                    Vec::with_capacity(if self.chunks.is_empty() { 8.min(N) } else { N });
                chunk.push(value);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
        index
    }

    pub fn get(&self, index: usize) -> Option<&T> {
        self.chunks.get(index / N)?.get(index % N)
    }

    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.chunks.get_mut(index / N)?.get_mut(index % N)
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.chunks.iter_mut().flatten()
    }

    /// Bytes allocated for elements and chunk headers.
    pub fn allocated_bytes(&self) -> usize {
        self.chunks
            .iter()
            .map(|c| c.capacity() * std::mem::size_of::<T>())
            .sum::<usize>()
            + self.chunks.capacity() * std::mem::size_of::<Vec<T>>()
    }
}

#[cfg(test)]
mod tests {
    use super::Chunked;

    #[test]
    fn indexes_across_chunks_with_bounded_slack() {
        let mut v: Chunked<u64, 16> = Chunked::default();
        for i in 0..100u64 {
            assert_eq!(v.push(i), i as usize);
        }
        assert_eq!(v.get(37), Some(&37));
        assert_eq!(v.get(100), None);
        *v.get_mut(5).unwrap() = 500;
        assert_eq!(v.iter().copied().sum::<u64>(), (0..100).sum::<u64>() + 495);
        assert!(v.allocated_bytes() <= (100 + 16) * 8 + 8 * 24);
        v.iter_mut().for_each(|x| *x = 0);
        assert_eq!(v.iter().sum::<u64>(), 0);
    }
}

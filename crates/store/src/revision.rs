//! Revisions: `(main, sub)` as etcd's `server/storage/mvcc/revision.go`.

/// One change's position in history: `main` is the store revision of the atomic write (a put,
/// a delete range or a whole txn), `sub` the index of the change inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Revision {
    pub main: i64,
    pub sub: i64,
}

impl Revision {
    /// etcd's backend key: 8 bytes big-endian main, `'_'`, 8 bytes big-endian sub
    /// (`revision.go` `RevToBytes`); a tombstone appends `'t'` (`markTombstone`).
    pub fn to_bytes(self, tombstone: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(18);
        out.extend_from_slice(&self.main.to_be_bytes());
        out.push(b'_');
        out.extend_from_slice(&self.sub.to_be_bytes());
        if tombstone {
            out.push(b't');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Revision;

    #[test]
    fn orders_by_main_then_sub_and_encodes_like_etcd() {
        let a = Revision { main: 2, sub: 5 };
        let b = Revision { main: 3, sub: 0 };
        assert!(a < b);
        let bytes = a.to_bytes(true);
        assert_eq!(bytes.len(), 18);
        assert_eq!(bytes[8], b'_');
        assert_eq!(bytes[17], b't');
        assert!(
            a.to_bytes(false) < b.to_bytes(false),
            "byte order is revision order"
        );
    }
}

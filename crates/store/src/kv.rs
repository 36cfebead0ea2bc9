//! The values the store hands out: etcd's `mvccpb.KeyValue` and `mvccpb.Event`.

/// One key at one revision, as etcd's `mvccpb.KeyValue`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyValue {
    pub key: Vec<u8>,
    /// Revision of the put that created the key in its current life.
    pub create_revision: i64,
    /// Revision of the last change to the key.
    pub mod_revision: i64,
    /// Number of puts since the key was created; a delete resets it to 0.
    pub version: i64,
    pub value: Vec<u8>,
    /// The lease the key is attached to; 0 for none.
    pub lease: i64,
}

/// `mvccpb.Event_EventType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventType {
    Put,
    Delete,
}

/// One change seen by a watch. A DELETE's `kv` holds only the key and `mod_revision` (the
/// delete's revision), as etcd's `kvstore_txn.go` delete writes it; a PUT with `version == 1` is
/// a creation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: EventType,
    pub kv: KeyValue,
    /// The key before this change, when the watch asked for `prev_kv` and it is retained.
    pub prev_kv: Option<KeyValue>,
}

impl Event {
    /// True for the PUT that created the key (`mvccpb.Event.IsCreate`).
    pub fn is_create(&self) -> bool {
        self.kind == EventType::Put && self.kv.version == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_creation_is_a_put_at_version_one() {
        let kv = KeyValue {
            key: b"/a".to_vec(),
            version: 1,
            ..KeyValue::default()
        };
        assert!(Event {
            kind: EventType::Put,
            kv: kv.clone(),
            prev_kv: None
        }
        .is_create());
        assert!(!Event {
            kind: EventType::Delete,
            kv: kv.clone(),
            prev_kv: None
        }
        .is_create());
        let updated = KeyValue { version: 2, ..kv };
        assert!(!Event {
            kind: EventType::Put,
            kv: updated,
            prev_kv: None
        }
        .is_create());
    }
}

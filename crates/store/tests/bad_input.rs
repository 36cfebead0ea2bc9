//! Every refused request gets its stable code and etcd's message, and leaves the store's
//! contents, revision and WAL exactly as they were.

// A failing unwrap is a failing test (clippy.toml allows it in tests).
#![allow(clippy::unwrap_used)]

use kubewasm_store::*;

fn seeded() -> Store {
    let mut store = Store::new();
    let lease = store.lease_grant(0, 60, 0).unwrap().id;
    store.put(b"/a", b"1").unwrap();
    store.put(b"/a", b"2").unwrap();
    store
        .put_with(
            b"/l",
            b"v",
            PutOptions {
                lease,
                ..PutOptions::default()
            },
        )
        .unwrap();
    store.compact(3).unwrap();
    store.take_wal();
    store
}

fn put(key: &str) -> RequestOp {
    RequestOp::Put(PutRequest {
        key: key.into(),
        value: b"x".to_vec(),
        ..PutRequest::default()
    })
}

fn txn(success: Vec<RequestOp>) -> TxnRequest {
    TxnRequest {
        success,
        ..TxnRequest::default()
    }
}

#[test]
fn every_error_path_has_its_code_and_changes_nothing() {
    type Attempt = Box<dyn Fn(&mut Store) -> Result<(), StoreError>>;
    let big = vec![0u8; MAX_REQUEST_BYTES];
    let range = |key: &str, revision: i64| RangeRequest {
        key: key.into(),
        revision,
        ..RangeRequest::default()
    };
    let cases: Vec<(&str, &str, Attempt)> = vec![
        (
            "E_EMPTY_KEY",
            "etcdserver: key is not provided",
            Box::new(|s| s.put(b"", b"v").map(drop)),
        ),
        (
            "E_EMPTY_KEY",
            "etcdserver: key is not provided",
            Box::new(move |s| s.range(&range("", 0)).map(drop)),
        ),
        (
            "E_REQUEST_TOO_LARGE",
            "etcdserver: request is too large",
            Box::new(move |s| s.put(b"/big", &big).map(drop)),
        ),
        (
            "E_FUTURE_REV",
            "mvcc: required revision is a future revision",
            Box::new(move |s| s.range(&range("/a", 99)).map(drop)),
        ),
        (
            "E_COMPACTED",
            "mvcc: required revision has been compacted",
            Box::new(move |s| s.range(&range("/a", 2)).map(drop)),
        ),
        (
            "E_COMPACTED",
            "mvcc: required revision has been compacted",
            Box::new(|s| s.compact(3)),
        ),
        (
            "E_FUTURE_REV",
            "mvcc: required revision is a future revision",
            Box::new(|s| s.compact(5)),
        ),
        (
            "E_KEY_NOT_FOUND",
            "etcdserver: key not found",
            Box::new(|s| {
                s.put_with(
                    b"/none",
                    b"",
                    PutOptions {
                        ignore_value: true,
                        ..PutOptions::default()
                    },
                )
                .map(drop)
            }),
        ),
        (
            "E_VALUE_PROVIDED",
            "etcdserver: value is provided",
            Box::new(|s| {
                s.put_with(
                    b"/a",
                    b"v",
                    PutOptions {
                        ignore_value: true,
                        ..PutOptions::default()
                    },
                )
                .map(drop)
            }),
        ),
        (
            "E_LEASE_PROVIDED",
            "etcdserver: lease is provided",
            Box::new(|s| {
                s.put_with(
                    b"/a",
                    b"v",
                    PutOptions {
                        ignore_lease: true,
                        lease: 1,
                        ..PutOptions::default()
                    },
                )
                .map(drop)
            }),
        ),
        (
            "E_LEASE_NOT_FOUND",
            "etcdserver: requested lease not found",
            Box::new(|s| {
                s.put_with(
                    b"/a",
                    b"v",
                    PutOptions {
                        lease: 42,
                        ..PutOptions::default()
                    },
                )
                .map(drop)
            }),
        ),
        (
            "E_LEASE_NOT_FOUND",
            "etcdserver: requested lease not found",
            Box::new(|s| s.lease_revoke(42).map(drop)),
        ),
        (
            "E_LEASE_NOT_FOUND",
            "etcdserver: requested lease not found",
            Box::new(|s| s.lease_keep_alive(42, 0).map(drop)),
        ),
        (
            "E_LEASE_EXISTS",
            "etcdserver: lease already exists",
            Box::new(|s| s.lease_grant(1, 10, 0).map(drop)),
        ),
        (
            "E_LEASE_TTL_TOO_LARGE",
            "etcdserver: too large lease TTL",
            Box::new(|s| s.lease_grant(0, MAX_LEASE_TTL + 1, 0).map(drop)),
        ),
        (
            "E_TOO_MANY_OPS",
            "etcdserver: too many operations in txn request",
            Box::new(|s| {
                s.txn(&txn((0..=MAX_TXN_OPS)
                    .map(|i| put(&format!("/t{i}")))
                    .collect()))
                    .map(drop)
            }),
        ),
        (
            "E_DUPLICATE_KEY",
            "etcdserver: duplicate key given in txn request",
            Box::new(|s| s.txn(&txn(vec![put("/d"), put("/d")])).map(drop)),
        ),
        (
            "E_EMPTY_WATCHER_RANGE",
            "mvcc: watcher range is empty",
            Box::new(|s| {
                s.watch(WatchRequest {
                    key: b"/b".to_vec(),
                    range_end: b"/a".to_vec(),
                    ..WatchRequest::default()
                })
                .map(drop)
            }),
        ),
        (
            "E_WATCHER_NOT_EXIST",
            "mvcc: watcher does not exist",
            Box::new(|s| s.cancel_watch(5)),
        ),
        (
            "E_CORRUPT_WAL",
            "kubewasm: corrupt wal record: sequence gap",
            Box::new(|s| {
                s.apply_wal_record(&WalRecord::Compact {
                    seq: 99,
                    revision: 4,
                })
                .map(drop)
            }),
        ),
        (
            "E_CORRUPT_WAL",
            "kubewasm: corrupt wal record: revision out of order",
            Box::new(|s| {
                let seq = s.wal_seq() + 1;
                let change = WalChange {
                    key: b"/w".to_vec(),
                    value: Some(b"v".to_vec()),
                    lease: 0,
                };
                s.apply_wal_record(&WalRecord::Changes {
                    seq,
                    revision: 9,
                    revoked_lease: 0,
                    changes: vec![change],
                })
                .map(drop)
            }),
        ),
        (
            "E_CORRUPT_SNAPSHOT",
            "kubewasm: corrupt snapshot: checksum mismatch",
            Box::new(|_| Store::restore(b"not a snapshot").map(drop)),
        ),
    ];
    for (code, message, attempt) in cases {
        let mut store = seeded();
        let before = store.snapshot();
        let error = attempt(&mut store).unwrap_err();
        assert_eq!((error.code(), error.to_string().as_str()), (code, message));
        assert_eq!(store.snapshot(), before, "{code} changed the store");
        assert!(store.take_wal().is_empty(), "{code} wrote WAL");
        assert_eq!(store.current_revision(), 4);
    }
}

#[test]
fn a_duplicate_watch_id_is_refused() {
    let mut store = seeded();
    let request = WatchRequest {
        key: b"/a".to_vec(),
        watch_id: 3,
        ..WatchRequest::default()
    };
    assert_eq!(store.watch(request.clone()), Ok(3));
    assert_eq!(
        store.watch(request).unwrap_err().to_string(),
        "mvcc: duplicate watch ID provided on the WatchStream"
    );
}

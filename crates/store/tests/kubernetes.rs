//! Kubernetes' whole use of etcd (store.md §1.3, §3.5): optimistic create/update/delete txns on
//! `mod_revision`, paginated lists pinned at a revision, counts, list-then-watch from the list
//! revision, and 410-style errors after compaction.

// A failing unwrap is a failing test (clippy.toml allows it in tests).
#![allow(clippy::unwrap_used)]

use kubewasm_store::*;

fn optimistic_put(store: &mut Store, key: &str, value: &str, expected_rev: i64) -> TxnResponse {
    store
        .txn(&TxnRequest {
            compare: vec![Compare {
                key: key.into(),
                range_end: Vec::new(),
                target: CompareTarget::Mod(expected_rev),
                result: CompareResult::Equal,
            }],
            success: vec![RequestOp::Put(PutRequest {
                key: key.into(),
                value: value.into(),
                ..PutRequest::default()
            })],
            failure: vec![RequestOp::Range(RangeRequest {
                key: key.into(),
                ..RangeRequest::default()
            })],
        })
        .unwrap()
}

fn list(store: &Store, from: &[u8], revision: i64, limit: usize) -> RangeResponse {
    store
        .range(&RangeRequest {
            key: from.to_vec(),
            range_end: b"/registry/pods0".to_vec(),
            revision,
            limit,
            ..RangeRequest::default()
        })
        .unwrap()
}

#[test]
fn create_update_conflict_and_delete() {
    let mut store = Store::new();
    assert!(optimistic_put(&mut store, "/registry/pods/a", "v1", 0).succeeded);
    let conflict = optimistic_put(&mut store, "/registry/pods/a", "v1'", 0);
    assert!(
        !conflict.succeeded,
        "create of an existing object conflicts"
    );
    let ResponseOp::Range(current) = &conflict.responses[0] else {
        panic!()
    };
    let rv = current.kvs[0].mod_revision;
    assert!(optimistic_put(&mut store, "/registry/pods/a", "v2", rv).succeeded);
    assert!(!optimistic_put(&mut store, "/registry/pods/a", "stale", rv).succeeded);
    let delete = store
        .txn(&TxnRequest {
            compare: vec![Compare {
                key: b"/registry/pods/a".to_vec(),
                range_end: Vec::new(),
                target: CompareTarget::Mod(3),
                result: CompareResult::Equal,
            }],
            success: vec![RequestOp::DeleteRange(DeleteRangeRequest {
                key: b"/registry/pods/a".to_vec(),
                prev_kv: true,
                ..DeleteRangeRequest::default()
            })],
            failure: Vec::new(),
        })
        .unwrap();
    assert!(delete.succeeded);
    assert_eq!(store.current_revision(), 4);
}

#[test]
fn paginated_list_is_pinned_and_watch_resumes_after_it() {
    let mut store = Store::new();
    for i in 0..25 {
        store
            .put(format!("/registry/pods/p{i:02}").as_bytes(), b"v")
            .unwrap();
    }
    let first = list(&store, b"/registry/pods/", 0, 10);
    let pinned = first.revision;
    assert_eq!((first.kvs.len(), first.count, first.more), (10, 25, true));
    // Writes between pages do not show up in the pinned list.
    store.put(b"/registry/pods/p00a", b"new").unwrap();
    store
        .delete_range(&DeleteRangeRequest {
            key: b"/registry/pods/p20".to_vec(),
            ..DeleteRangeRequest::default()
        })
        .unwrap();
    let mut names: Vec<Vec<u8>> = first.kvs.iter().map(|kv| kv.key.clone()).collect();
    let mut page = first;
    while page.more {
        let mut next = page.kvs.last().unwrap().key.clone();
        next.push(0); // continue from lastKey + "\0"
        page = list(&store, &next, pinned, 10);
        names.extend(page.kvs.iter().map(|kv| kv.key.clone()));
    }
    assert_eq!(names.len(), 25);
    let count = store
        .range(&RangeRequest {
            key: b"/registry/pods/".to_vec(),
            range_end: b"/registry/pods0".to_vec(),
            count_only: true,
            ..RangeRequest::default()
        })
        .unwrap();
    assert_eq!(count.count, 25, "one created, one deleted");
    // Watch from the list revision + 1 sees exactly what the list missed.
    store
        .watch(WatchRequest {
            key: b"/registry/pods/".to_vec(),
            range_end: b"/registry/pods0".to_vec(),
            start_revision: pinned + 1,
            ..WatchRequest::default()
        })
        .unwrap();
    let kinds: Vec<EventType> = store
        .poll_watch_events(0)
        .into_iter()
        .flat_map(|r| r.events)
        .map(|e| e.kind)
        .collect();
    assert_eq!(kinds, [EventType::Put, EventType::Delete]);
    // After compaction the pinned list is gone: the apiserver's 410 Expired.
    store.compact(store.current_revision()).unwrap();
    let expired = store.range(&RangeRequest {
        key: b"/registry/pods/".to_vec(),
        range_end: b"/registry/pods0".to_vec(),
        revision: pinned,
        ..RangeRequest::default()
    });
    assert_eq!(expired.unwrap_err().code(), "E_COMPACTED");
}

#[test]
fn event_objects_expire_with_their_lease() {
    let mut store = Store::new();
    let lease = store.lease_grant(0, 3600, 0).unwrap().id;
    let leased = PutOptions {
        lease,
        ..PutOptions::default()
    };
    store
        .put_with(b"/registry/events/default/e1", b"{}", leased)
        .unwrap();
    store
        .put_with(b"/registry/events/default/e2", b"{}", leased)
        .unwrap();
    let watch = store
        .watch(WatchRequest {
            key: b"/registry/events/".to_vec(),
            range_end: b"/registry/events0".to_vec(),
            ..WatchRequest::default()
        })
        .unwrap();
    assert_eq!(
        store.expire_leases(3_600_000, LEASE_REVOKE_RATE),
        vec![lease]
    );
    let out = store.poll_watch_events(0);
    let deletes: Vec<_> = out
        .iter()
        .filter(|r| r.watch_id == watch)
        .flat_map(|r| &r.events)
        .collect();
    assert_eq!(deletes.len(), 2);
    assert!(deletes
        .iter()
        .all(|e| e.kind == EventType::Delete && e.kv.mod_revision == 4));
    let decoded = decode_watch_responses(&encode_watch_responses(&out)).unwrap();
    assert_eq!(decoded, out);
}

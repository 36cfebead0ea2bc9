//! Transactions (`W learning/api.md` Transaction; `E server/etcdserver/txn/txn.go`;
//! `E server/etcdserver/api/v3rpc/key.go` checkTxnRequest and checkIntervals).
//!
//! A txn is checked completely before anything is written (op limits, empty keys, flag
//! conflicts, duplicate keys, and, along the branch its compares select, read revisions,
//! missing keys and leases), so it applies all or nothing, in one revision, or in none if it
//! changes nothing. Compares, nested ones included, see the state before the txn; reads inside
//! see the txn's own earlier writes.

use std::cmp::Ordering;
use std::collections::BTreeSet;

use crate::range::in_range;
use crate::store::{DeleteRangeRequest, DeleteRangeResponse, PutOptions, PutResponse};
use crate::{KeyValue, RangeRequest, RangeResponse, Store, StoreError, MAX_REQUEST_BYTES};

/// `DefaultMaxTxnOps` — etcd server/embed/config.go.
pub const MAX_TXN_OPS: usize = 128;

/// What a compare reads, with the operand it is compared against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareTarget {
    Version(i64),
    Create(i64),
    Mod(i64),
    Value(Vec<u8>),
    Lease(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareResult {
    Equal,
    Greater,
    Less,
    NotEqual,
}

/// `key`'s target `result` operand, e.g. `mod_revision == 0` for "create if absent". With a
/// `range_end`, the compare must hold for every key in the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compare {
    pub key: Vec<u8>,
    pub range_end: Vec<u8>,
    pub target: CompareTarget,
    pub result: CompareResult,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PutRequest {
    pub key: Vec<u8>,
    pub value: Vec<u8>,
    pub lease: i64,
    pub prev_kv: bool,
    pub ignore_value: bool,
    pub ignore_lease: bool,
}

impl PutRequest {
    fn options(&self) -> PutOptions {
        PutOptions {
            lease: self.lease,
            prev_kv: self.prev_kv,
            ignore_value: self.ignore_value,
            ignore_lease: self.ignore_lease,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestOp {
    Range(RangeRequest),
    Put(PutRequest),
    DeleteRange(DeleteRangeRequest),
    Txn(TxnRequest),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseOp {
    Range(RangeResponse),
    Put(PutResponse),
    DeleteRange(DeleteRangeResponse),
    Txn(TxnResponse),
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TxnRequest {
    pub compare: Vec<Compare>,
    pub success: Vec<RequestOp>,
    pub failure: Vec<RequestOp>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TxnResponse {
    pub succeeded: bool,
    pub responses: Vec<ResponseOp>,
    /// The store revision after the txn.
    pub revision: i64,
}

impl Store {
    /// Runs `compare`, then `success` or `failure`, atomically in one revision.
    pub fn txn(&mut self, request: &TxnRequest) -> Result<TxnResponse, StoreError> {
        check_txn_request(request)?;
        if request_bytes(request) > MAX_REQUEST_BYTES {
            return Err(StoreError::RequestTooLarge);
        }
        check_intervals(&request.success)?;
        check_intervals(&request.failure)?;
        let mut path = Vec::new();
        self.compare_to_path(request, &mut path);
        let mut cursor = 0;
        let bytes = self.check_path(request, &path, &mut cursor)?;
        if !self.arena.fits(bytes) {
            return Err(StoreError::NoSpace);
        }
        let mut cursor = 0;
        let mut response = self.exec_txn(request, &path, &mut cursor);
        self.commit(0);
        set_write_revisions(&mut response, self.current_revision);
        Ok(response)
    }

    /// etcd's `compareToPath`: the branch taken by this txn and every nested one it reaches,
    /// depth first, all evaluated against the state before the txn.
    fn compare_to_path(&self, request: &TxnRequest, path: &mut Vec<bool>) {
        let succeeded = request.compare.iter().all(|c| self.apply_compare(c));
        path.push(succeeded);
        let ops = if succeeded {
            &request.success
        } else {
            &request.failure
        };
        for op in ops {
            if let RequestOp::Txn(nested) = op {
                self.compare_to_path(nested, path);
            }
        }
    }

    /// etcd's `applyCompare`: no key means a VALUE compare fails and the others compare
    /// against an empty key-value (all zero); otherwise every key must satisfy it.
    fn apply_compare(&self, compare: &Compare) -> bool {
        let request = RangeRequest {
            key: compare.key.clone(),
            range_end: compare.range_end.clone(),
            keys_only: !matches!(compare.target, CompareTarget::Value(_)),
            ..RangeRequest::default()
        };
        let Ok(found) = self.range_in_view(&request, self.view_revision()) else {
            return false;
        };
        if found.kvs.is_empty() {
            if matches!(compare.target, CompareTarget::Value(_)) {
                return false;
            }
            return compare_kv(compare, &KeyValue::default());
        }
        found.kvs.iter().all(|kv| compare_kv(compare, kv))
    }

    /// etcd's `checkTxn` along the chosen path; returns the arena bytes the writes will take.
    fn check_path(
        &self,
        request: &TxnRequest,
        path: &[bool],
        cursor: &mut usize,
    ) -> Result<usize, StoreError> {
        let succeeded = path.get(*cursor).copied().unwrap_or(false);
        *cursor += 1;
        let ops = if succeeded {
            &request.success
        } else {
            &request.failure
        };
        let mut bytes = 0;
        for op in ops {
            match op {
                RequestOp::Range(range) => {
                    let at = if range.revision <= 0 {
                        self.current_revision
                    } else {
                        range.revision
                    };
                    self.check_read_revision(at, self.current_revision)?;
                }
                RequestOp::Put(put) => {
                    bytes += self.check_put(&put.key, &put.value, &put.options())?
                }
                RequestOp::DeleteRange(_) => {}
                RequestOp::Txn(nested) => bytes += self.check_path(nested, path, cursor)?,
            }
        }
        Ok(bytes)
    }

    fn exec_txn(&mut self, request: &TxnRequest, path: &[bool], cursor: &mut usize) -> TxnResponse {
        let succeeded = path.get(*cursor).copied().unwrap_or(false);
        *cursor += 1;
        let ops = if succeeded {
            &request.success
        } else {
            &request.failure
        };
        let mut responses = Vec::with_capacity(ops.len());
        for op in ops {
            responses.push(match op {
                RequestOp::Range(range) => ResponseOp::Range(
                    self.range_in_view(range, self.view_revision())
                        .unwrap_or_default(),
                ),
                RequestOp::Put(put) => {
                    // Checked above, so this cannot fail; a failure would only drop this op.
                    let prev_kv = self
                        .exec_put(&put.key, &put.value, &put.options())
                        .ok()
                        .flatten();
                    ResponseOp::Put(PutResponse {
                        revision: 0,
                        prev_kv,
                    })
                }
                RequestOp::DeleteRange(delete) => {
                    ResponseOp::DeleteRange(self.exec_delete_range(delete))
                }
                RequestOp::Txn(nested) => ResponseOp::Txn(self.exec_txn(nested, path, cursor)),
            });
        }
        TxnResponse {
            succeeded,
            responses,
            revision: 0,
        }
    }
}

fn set_write_revisions(response: &mut TxnResponse, revision: i64) {
    response.revision = revision;
    for op in &mut response.responses {
        match op {
            ResponseOp::Put(put) => put.revision = revision,
            ResponseOp::DeleteRange(delete) => delete.revision = revision,
            ResponseOp::Txn(nested) => set_write_revisions(nested, revision),
            ResponseOp::Range(_) => {}
        }
    }
}

/// etcd's `compareKV`.
fn compare_kv(compare: &Compare, kv: &KeyValue) -> bool {
    let ordering = match &compare.target {
        CompareTarget::Value(v) => kv.value.as_slice().cmp(v.as_slice()),
        CompareTarget::Create(r) => kv.create_revision.cmp(r),
        CompareTarget::Mod(r) => kv.mod_revision.cmp(r),
        CompareTarget::Version(v) => kv.version.cmp(v),
        CompareTarget::Lease(l) => kv.lease.cmp(l),
    };
    match compare.result {
        CompareResult::Equal => ordering == Ordering::Equal,
        CompareResult::NotEqual => ordering != Ordering::Equal,
        CompareResult::Greater => ordering == Ordering::Greater,
        CompareResult::Less => ordering == Ordering::Less,
    }
}

/// etcd's `checkTxnRequest` (recursive through nested txns) and `checkPutRequest`.
fn check_txn_request(request: &TxnRequest) -> Result<(), StoreError> {
    let ops = request
        .compare
        .len()
        .max(request.success.len())
        .max(request.failure.len());
    if ops > MAX_TXN_OPS {
        return Err(StoreError::TooManyOps);
    }
    if request.compare.iter().any(|c| c.key.is_empty()) {
        return Err(StoreError::EmptyKey);
    }
    for op in request.success.iter().chain(&request.failure) {
        match op {
            RequestOp::Range(r) if r.key.is_empty() => return Err(StoreError::EmptyKey),
            RequestOp::DeleteRange(d) if d.key.is_empty() => return Err(StoreError::EmptyKey),
            RequestOp::Put(p) => {
                if p.key.is_empty() {
                    return Err(StoreError::EmptyKey);
                }
                if p.ignore_value && !p.value.is_empty() {
                    return Err(StoreError::ValueProvided);
                }
                if p.ignore_lease && p.lease != 0 {
                    return Err(StoreError::LeaseProvided);
                }
            }
            RequestOp::Txn(nested) => check_txn_request(nested)?,
            _ => {}
        }
    }
    Ok(())
}

/// The request's payload size, standing in for etcd's gRPC message size limit.
fn request_bytes(request: &TxnRequest) -> usize {
    let compares: usize = request
        .compare
        .iter()
        .map(|c| {
            c.key.len()
                + c.range_end.len()
                + match &c.target {
                    CompareTarget::Value(v) => v.len(),
                    _ => 8,
                }
        })
        .sum();
    let ops: usize = request
        .success
        .iter()
        .chain(&request.failure)
        .map(|op| match op {
            RequestOp::Range(r) => r.key.len() + r.range_end.len(),
            RequestOp::Put(p) => p.key.len() + p.value.len(),
            RequestOp::DeleteRange(d) => d.key.len() + d.range_end.len(),
            RequestOp::Txn(nested) => request_bytes(nested),
        })
        .sum();
    compares + ops
}

type Deletes<'a> = Vec<(&'a [u8], &'a [u8])>;

fn deleted(dels: &Deletes<'_>, key: &[u8]) -> bool {
    dels.iter().any(|(start, end)| in_range(start, end, key))
}

/// etcd's `checkIntervals`: within one branch, no key is put twice or both put and deleted,
/// nested txns included; the two branches of a nested txn may put the same key.
fn check_intervals(ops: &[RequestOp]) -> Result<(BTreeSet<&[u8]>, Deletes<'_>), StoreError> {
    let mut dels: Deletes<'_> = ops
        .iter()
        .filter_map(|op| match op {
            RequestOp::DeleteRange(d) => Some((d.key.as_slice(), d.range_end.as_slice())),
            _ => None,
        })
        .collect();
    let mut puts: BTreeSet<&[u8]> = BTreeSet::new();
    for op in ops {
        let RequestOp::Txn(nested) = op else { continue };
        let (puts_then, dels_then) = check_intervals(&nested.success)?;
        let (puts_else, dels_else) = check_intervals(&nested.failure)?;
        for &key in &puts_then {
            if puts.contains(key) || deleted(&dels, key) {
                return Err(StoreError::DuplicateKey);
            }
            puts.insert(key);
        }
        for &key in &puts_else {
            if (puts.contains(key) && !puts_then.contains(key)) || deleted(&dels, key) {
                return Err(StoreError::DuplicateKey);
            }
            puts.insert(key);
        }
        dels.extend(dels_then);
        dels.extend(dels_else);
    }
    for op in ops {
        let RequestOp::Put(put) = op else { continue };
        let key = put.key.as_slice();
        if puts.contains(key) || deleted(&dels, key) {
            return Err(StoreError::DuplicateKey);
        }
        puts.insert(key);
    }
    Ok((puts, dels))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(key: &str, value: &str) -> RequestOp {
        RequestOp::Put(PutRequest {
            key: key.into(),
            value: value.into(),
            ..PutRequest::default()
        })
    }

    fn get(key: &str) -> RequestOp {
        RequestOp::Range(RangeRequest {
            key: key.into(),
            ..RangeRequest::default()
        })
    }

    fn delete(key: &str, end: &str) -> RequestOp {
        RequestOp::DeleteRange(DeleteRangeRequest {
            key: key.into(),
            range_end: end.into(),
            prev_kv: false,
        })
    }

    fn cmp(key: &str, target: CompareTarget, result: CompareResult) -> Compare {
        Compare {
            key: key.into(),
            range_end: Vec::new(),
            target,
            result,
        }
    }

    #[test]
    fn optimistic_put_is_kubernetes_create_and_update() {
        let mut store = Store::new();
        let create = TxnRequest {
            compare: vec![cmp("/a", CompareTarget::Mod(0), CompareResult::Equal)],
            success: vec![put("/a", "1")],
            failure: vec![get("/a")],
        };
        let first = store.txn(&create).unwrap();
        assert!(first.succeeded);
        assert_eq!(first.revision, 2);
        let second = store.txn(&create).unwrap();
        assert!(!second.succeeded);
        assert_eq!(second.revision, 2, "a read-only txn takes no revision");
        let ResponseOp::Range(read) = &second.responses[0] else {
            panic!()
        };
        assert_eq!(read.kvs[0].mod_revision, 2);
    }

    #[test]
    fn one_revision_per_txn_and_reads_see_own_writes() {
        let mut store = Store::new();
        store.put(b"/x", b"0").unwrap();
        let txn = TxnRequest {
            success: vec![put("/a", "1"), get("/a"), put("/b", "2"), delete("/x", "")],
            ..TxnRequest::default()
        };
        let response = store.txn(&txn).unwrap();
        assert_eq!(response.revision, 3);
        let ResponseOp::Range(read) = &response.responses[1] else {
            panic!()
        };
        assert_eq!((read.kvs[0].mod_revision, read.revision), (3, 3));
        let ResponseOp::Put(written) = &response.responses[2] else {
            panic!()
        };
        assert_eq!(written.revision, 3);
    }

    #[test]
    fn compares_follow_etcds_missing_key_and_range_rules() {
        let mut store = Store::new();
        store.put(b"/p/1", b"a").unwrap();
        store.put(b"/p/2", b"b").unwrap();
        let check = |store: &mut Store, compare: Compare| {
            store
                .txn(&TxnRequest {
                    compare: vec![compare],
                    ..TxnRequest::default()
                })
                .unwrap()
                .succeeded
        };
        assert!(!check(
            &mut store,
            cmp(
                "/none",
                CompareTarget::Value(Vec::new()),
                CompareResult::Equal
            )
        ));
        assert!(check(
            &mut store,
            cmp("/none", CompareTarget::Version(0), CompareResult::Equal)
        ));
        assert!(check(
            &mut store,
            cmp("/none", CompareTarget::Lease(0), CompareResult::Equal)
        ));
        assert!(check(
            &mut store,
            cmp(
                "/p/1",
                CompareTarget::Value(b"a".to_vec()),
                CompareResult::Equal
            )
        ));
        assert!(check(
            &mut store,
            cmp("/p/1", CompareTarget::Create(1), CompareResult::Greater)
        ));
        assert!(check(
            &mut store,
            cmp("/p/1", CompareTarget::Mod(3), CompareResult::Less)
        ));
        assert!(check(
            &mut store,
            cmp("/p/1", CompareTarget::Version(2), CompareResult::NotEqual)
        ));
        let range = |end: &str, target, result| Compare {
            range_end: end.into(),
            ..cmp("/p/", target, result)
        };
        assert!(check(
            &mut store,
            range("/p0", CompareTarget::Mod(1), CompareResult::Greater)
        ));
        assert!(
            !check(
                &mut store,
                range("/p0", CompareTarget::Mod(2), CompareResult::Equal)
            ),
            "must hold for every key"
        );
        assert!(check(
            &mut store,
            Compare {
                range_end: "/r0".into(),
                ..cmp("/r/", CompareTarget::Mod(0), CompareResult::Equal)
            }
        ));
    }

    #[test]
    fn nested_txns_and_duplicate_rules() {
        let mut store = Store::new();
        let nested = TxnRequest {
            compare: vec![cmp("/a", CompareTarget::Version(0), CompareResult::Equal)],
            success: vec![put("/k", "then")],
            failure: vec![put("/k", "else")],
        };
        let ok = TxnRequest {
            success: vec![put("/a", "1"), RequestOp::Txn(nested.clone())],
            ..TxnRequest::default()
        };
        let response = store.txn(&ok).unwrap();
        let ResponseOp::Txn(inner) = &response.responses[1] else {
            panic!()
        };
        assert!(
            inner.succeeded,
            "nested compares see the state before the txn"
        );
        let dup = TxnRequest {
            success: vec![put("/k", "x"), RequestOp::Txn(nested)],
            ..TxnRequest::default()
        };
        assert_eq!(store.txn(&dup), Err(StoreError::DuplicateKey));
        let put_deleted = TxnRequest {
            success: vec![delete("/a", "/z"), put("/k", "x")],
            ..TxnRequest::default()
        };
        assert_eq!(
            store.txn(&put_deleted).unwrap_err().to_string(),
            "etcdserver: duplicate key given in txn request"
        );
        let overlapping_deletes = TxnRequest {
            success: vec![delete("/a", "/l"), delete("/k", "")],
            ..TxnRequest::default()
        };
        assert_eq!(store.txn(&overlapping_deletes).unwrap().revision, 3);
        let too_many = TxnRequest {
            success: (0..129).map(|i| put(&format!("/{i}"), "")).collect(),
            ..TxnRequest::default()
        };
        assert_eq!(
            store.txn(&too_many).unwrap_err().to_string(),
            "etcdserver: too many operations in txn request"
        );
        let exactly = TxnRequest {
            success: (0..128).map(|i| put(&format!("/{i}"), "")).collect(),
            ..TxnRequest::default()
        };
        assert!(store.txn(&exactly).is_ok());
    }

    #[test]
    fn nested_txns_may_put_then_delete_a_key_in_one_revision() {
        // etcd's checkIntervals checks nested puts only against deletes seen before them, so
        // this passes there too: the key ends deleted, with both events at one revision.
        let mut store = Store::new();
        store.put(b"/b", b"1").unwrap();
        let watch = store
            .watch(crate::WatchRequest {
                key: b"/f".to_vec(),
                prev_kv: true,
                ..Default::default()
            })
            .unwrap();
        let absent = |key: &str| cmp(key, CompareTarget::Version(0), CompareResult::Equal);
        let nested = |key: &str, then: RequestOp, otherwise: RequestOp| {
            RequestOp::Txn(TxnRequest {
                compare: vec![absent(key)],
                success: vec![then],
                failure: vec![otherwise],
            })
        };
        let txn = TxnRequest {
            success: vec![
                nested("/f", put("/f", "n"), get("/f")),
                nested("/b", get("/b"), delete("/f", "")),
            ],
            ..TxnRequest::default()
        };
        assert_eq!(store.txn(&txn).unwrap().revision, 3);
        assert_eq!(
            store
                .range(&RangeRequest {
                    key: b"/f".to_vec(),
                    ..RangeRequest::default()
                })
                .unwrap()
                .count,
            0
        );
        let events: Vec<_> = store
            .poll_watch_events(0)
            .into_iter()
            .flat_map(|r| r.events)
            .collect();
        assert_eq!(events.len(), 2);
        assert_eq!(
            (events[0].kv.mod_revision, events[1].kv.mod_revision),
            (3, 3)
        );
        assert_eq!(
            events[1].prev_kv, None,
            "prev_kv is read at revision 2, where /f did not exist"
        );
        let restored = Store::restore(&store.snapshot()).unwrap();
        assert_eq!(restored.snapshot(), store.snapshot());
        let mut replayed = Store::new();
        assert_eq!(replayed.replay_wal(&store.take_wal()).tail, None);
        assert_eq!(replayed.snapshot(), store.snapshot());
        store.cancel_watch(watch).unwrap();
    }

    #[test]
    fn failed_txns_change_nothing() {
        let mut store = Store::new();
        store.put(b"/a", b"1").unwrap();
        store.take_wal();
        let cases = [
            TxnRequest {
                success: vec![
                    put("/b", "2"),
                    put("/c", ""),
                    RequestOp::Put(PutRequest {
                        key: b"/none".to_vec(),
                        ignore_value: true,
                        ..PutRequest::default()
                    }),
                ],
                ..TxnRequest::default()
            },
            TxnRequest {
                success: vec![
                    put("/b", "2"),
                    RequestOp::Put(PutRequest {
                        key: b"/b2".to_vec(),
                        lease: 77,
                        ..PutRequest::default()
                    }),
                ],
                ..TxnRequest::default()
            },
            TxnRequest {
                success: vec![
                    put("/b", "2"),
                    RequestOp::Range(RangeRequest {
                        key: b"/a".to_vec(),
                        revision: 99,
                        ..RangeRequest::default()
                    }),
                ],
                ..TxnRequest::default()
            },
            TxnRequest {
                success: vec![put("/b", "2"), put("", "x")],
                ..TxnRequest::default()
            },
            TxnRequest {
                success: vec![put("/b", &"x".repeat(MAX_REQUEST_BYTES))],
                ..TxnRequest::default()
            },
        ];
        let codes: Vec<_> = cases
            .iter()
            .map(|c| store.txn(c).unwrap_err().code())
            .collect();
        assert_eq!(
            codes,
            [
                "E_KEY_NOT_FOUND",
                "E_LEASE_NOT_FOUND",
                "E_FUTURE_REV",
                "E_EMPTY_KEY",
                "E_REQUEST_TOO_LARGE"
            ]
        );
        assert_eq!(store.current_revision(), 2);
        assert_eq!(
            store
                .range(&RangeRequest {
                    key: vec![0],
                    range_end: vec![0],
                    ..RangeRequest::default()
                })
                .unwrap()
                .count,
            1
        );
        assert!(store.take_wal().is_empty());
    }
}

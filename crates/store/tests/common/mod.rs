//! A deliberately simple reference model of etcd's MVCC semantics — a flat list of every change
//! ever made, searched linearly — and a random operation language run against both it and the
//! real store.
#![allow(dead_code)]

use std::collections::BTreeMap;

use kubewasm_store::*;
use proptest::prelude::*;

pub const KEYS: u8 = 6;

pub fn key(i: u8) -> Vec<u8> {
    format!("/{}", (b'a' + i % KEYS) as char).into_bytes()
}

/// `None` = single key, `Some(KEYS)` = to the end (`"\0"`), else the key at that index.
pub fn end(e: Option<u8>) -> Vec<u8> {
    match e {
        None => Vec::new(),
        Some(j) if j >= KEYS => vec![0],
        Some(j) => key(j),
    }
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub rev: i64,
    pub sub: i64,
    pub key: Vec<u8>,
    /// `None` for a delete.
    pub put: Option<(Vec<u8>, i64)>,
}

#[derive(Debug, Clone)]
pub struct Model {
    pub current: i64,
    pub compact: i64,
    pub log: Vec<Entry>,
    pub leases: BTreeMap<i64, (i64, i64)>,
    pub next_lease: i64,
    pending: Vec<Entry>,
}

impl Default for Model {
    fn default() -> Self {
        Model {
            current: 1,
            compact: -1,
            log: Vec::new(),
            leases: BTreeMap::new(),
            next_lease: 1,
            pending: Vec::new(),
        }
    }
}

fn in_range(start: &[u8], end: &[u8], k: &[u8]) -> bool {
    match end {
        [] => k == start,
        [0] => k >= start,
        e => k >= start && k < e,
    }
}

impl Model {
    fn all_entries(&self) -> impl Iterator<Item = &Entry> {
        self.log.iter().chain(self.pending.iter())
    }

    /// The key as of revision `at`, computed from scratch.
    pub fn kv_at(&self, k: &[u8], at: i64) -> Option<KeyValue> {
        let mut kv: Option<KeyValue> = None;
        for e in self.all_entries().filter(|e| e.key == k && e.rev <= at) {
            kv = match (&e.put, kv) {
                (None, _) => None,
                (Some((value, lease)), prev) => Some(KeyValue {
                    key: k.to_vec(),
                    create_revision: prev.as_ref().map_or(e.rev, |p| p.create_revision),
                    mod_revision: e.rev,
                    version: prev.as_ref().map_or(1, |p| p.version + 1),
                    value: value.clone(),
                    lease: *lease,
                }),
            };
        }
        kv
    }

    fn keys(&self) -> Vec<Vec<u8>> {
        let mut keys: Vec<Vec<u8>> = self.all_entries().map(|e| e.key.clone()).collect();
        keys.sort();
        keys.dedup();
        keys
    }

    fn view_rev(&self) -> i64 {
        self.current + i64::from(!self.pending.is_empty())
    }

    pub fn range(&self, r: &RangeRequest) -> Result<RangeResponse, StoreError> {
        self.range_in(r, self.view_rev())
    }

    fn range_in(&self, r: &RangeRequest, current: i64) -> Result<RangeResponse, StoreError> {
        if r.key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        let at = if r.revision <= 0 { current } else { r.revision };
        if at > current {
            return Err(StoreError::FutureRevision {
                current_revision: self.current,
            });
        }
        if at < self.compact {
            return Err(StoreError::Compacted {
                compact_revision: self.compact,
            });
        }
        let end_ok = r.range_end.is_empty() || r.range_end == [0] || r.range_end > r.key;
        let mut kvs: Vec<KeyValue> = if end_ok {
            self.keys()
                .iter()
                .filter(|k| in_range(&r.key, &r.range_end, k))
                .filter_map(|k| self.kv_at(k, at))
                .collect()
        } else {
            Vec::new()
        };
        let count = kvs.len();
        let filtered = r.min_mod_revision != 0
            || r.max_mod_revision != 0
            || r.min_create_revision != 0
            || r.max_create_revision != 0;
        if r.limit > 0 && r.sort_order == SortOrder::None && !filtered {
            // etcd's quirk: without an explicit order it fetches limit + 1 keys in key order
            // and only then sorts them by a non-key target (txn/range.go).
            kvs.truncate(r.limit + 1);
        }
        kvs.retain(|kv| {
            (r.max_mod_revision == 0 || kv.mod_revision <= r.max_mod_revision)
                && (r.min_mod_revision == 0 || kv.mod_revision >= r.min_mod_revision)
                && (r.max_create_revision == 0 || kv.create_revision <= r.max_create_revision)
                && (r.min_create_revision == 0 || kv.create_revision >= r.min_create_revision)
        });
        let target = r.sort_target;
        let order = match (r.sort_order, target) {
            (SortOrder::None, SortTarget::Key) => SortOrder::None,
            (SortOrder::None, _) => SortOrder::Ascend,
            (o, _) => o,
        };
        if order != SortOrder::None {
            kvs.sort_by(|a, b| {
                let o = match target {
                    SortTarget::Key => a.key.cmp(&b.key),
                    SortTarget::Version => a.version.cmp(&b.version),
                    SortTarget::Create => a.create_revision.cmp(&b.create_revision),
                    SortTarget::Mod => a.mod_revision.cmp(&b.mod_revision),
                    SortTarget::Value => a.value.cmp(&b.value),
                };
                if order == SortOrder::Descend {
                    o.reverse()
                } else {
                    o
                }
            });
        }
        let mut more = false;
        if r.limit > 0 && kvs.len() > r.limit {
            kvs.truncate(r.limit);
            more = true;
        }
        if r.count_only {
            kvs.clear();
            more = false;
        }
        if r.keys_only {
            kvs.iter_mut().for_each(|kv| kv.value.clear());
        }
        Ok(RangeResponse {
            kvs,
            more,
            count,
            revision: current,
        })
    }

    fn live(&self, k: &[u8]) -> Option<KeyValue> {
        self.kv_at(k, i64::MAX)
    }

    fn check_put(&self, p: &PutRequest) -> Result<(), StoreError> {
        if p.key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        if p.ignore_value && !p.value.is_empty() {
            return Err(StoreError::ValueProvided);
        }
        if p.ignore_lease && p.lease != 0 {
            return Err(StoreError::LeaseProvided);
        }
        if (p.ignore_value || p.ignore_lease) && self.live(&p.key).is_none() {
            return Err(StoreError::KeyNotFound);
        }
        if p.lease != 0 && !self.leases.contains_key(&p.lease) {
            return Err(StoreError::LeaseNotFound);
        }
        Ok(())
    }

    fn exec_put(&mut self, p: &PutRequest) -> PutResponse {
        let old = self.live(&p.key);
        let value = if p.ignore_value {
            old.as_ref().map(|o| o.value.clone()).unwrap_or_default()
        } else {
            p.value.clone()
        };
        let lease = if p.ignore_lease {
            old.as_ref().map_or(0, |o| o.lease)
        } else {
            p.lease
        };
        let sub = self.pending.len() as i64;
        self.pending.push(Entry {
            rev: self.current + 1,
            sub,
            key: p.key.clone(),
            put: Some((value, lease)),
        });
        PutResponse {
            revision: 0,
            prev_kv: if p.prev_kv { old } else { None },
        }
    }

    fn exec_delete(&mut self, d: &DeleteRangeRequest) -> DeleteRangeResponse {
        let mut response = DeleteRangeResponse::default();
        let end_ok = d.range_end.is_empty() || d.range_end == [0] || d.range_end > d.key;
        if !end_ok {
            return response;
        }
        for k in self.keys() {
            if !in_range(&d.key, &d.range_end, &k) {
                continue;
            }
            if let Some(kv) = self.live(&k) {
                if d.prev_kv {
                    response.prev_kvs.push(kv);
                }
                let sub = self.pending.len() as i64;
                self.pending.push(Entry {
                    rev: self.current + 1,
                    sub,
                    key: k,
                    put: None,
                });
                response.deleted += 1;
            }
        }
        response
    }

    fn commit(&mut self) {
        if !self.pending.is_empty() {
            self.current += 1;
            self.log.append(&mut self.pending);
        }
    }

    pub fn put(&mut self, p: &PutRequest) -> Result<PutResponse, StoreError> {
        if p.key.len() + p.value.len() > MAX_REQUEST_BYTES {
            return Err(StoreError::RequestTooLarge);
        }
        self.check_put(p)?;
        let mut r = self.exec_put(p);
        self.commit();
        r.revision = self.current;
        Ok(r)
    }

    pub fn delete(&mut self, d: &DeleteRangeRequest) -> Result<DeleteRangeResponse, StoreError> {
        if d.key.is_empty() {
            return Err(StoreError::EmptyKey);
        }
        let mut r = self.exec_delete(d);
        self.commit();
        r.revision = self.current;
        Ok(r)
    }

    /// Txns, nested ones included: checked whole first (limits, flags, duplicate keys per
    /// etcd's `checkIntervals`), every compare evaluated against the state before the txn,
    /// then the chosen branches checked and run in one revision.
    pub fn txn(&mut self, t: &TxnRequest) -> Result<TxnResponse, StoreError> {
        fn check_shape(t: &TxnRequest) -> Result<(), StoreError> {
            if t.compare.len().max(t.success.len()).max(t.failure.len()) > MAX_TXN_OPS {
                return Err(StoreError::TooManyOps);
            }
            for op in t.success.iter().chain(&t.failure) {
                match op {
                    RequestOp::Put(p) if p.ignore_value && !p.value.is_empty() => {
                        return Err(StoreError::ValueProvided)
                    }
                    RequestOp::Put(p) if p.ignore_lease && p.lease != 0 => {
                        return Err(StoreError::LeaseProvided)
                    }
                    RequestOp::Txn(n) => check_shape(n)?,
                    _ => {}
                }
            }
            Ok(())
        }
        /// Keys a branch may put and ranges it may delete, or a duplicate.
        type Writes = (Vec<Vec<u8>>, Vec<(Vec<u8>, Vec<u8>)>);
        fn writes(ops: &[RequestOp]) -> Result<Writes, StoreError> {
            let mut dels: Vec<(Vec<u8>, Vec<u8>)> = ops
                .iter()
                .filter_map(|op| match op {
                    RequestOp::DeleteRange(d) => Some((d.key.clone(), d.range_end.clone())),
                    _ => None,
                })
                .collect();
            let hit =
                |dels: &[(Vec<u8>, Vec<u8>)], k: &[u8]| dels.iter().any(|(s, e)| in_range(s, e, k));
            let mut puts: Vec<Vec<u8>> = Vec::new();
            for op in ops {
                if let RequestOp::Txn(n) = op {
                    let (then_puts, then_dels) = writes(&n.success)?;
                    let (else_puts, else_dels) = writes(&n.failure)?;
                    for k in &then_puts {
                        if puts.contains(k) || hit(&dels, k) {
                            return Err(StoreError::DuplicateKey);
                        }
                        puts.push(k.clone());
                    }
                    for k in &else_puts {
                        if (puts.contains(k) && !then_puts.contains(k)) || hit(&dels, k) {
                            return Err(StoreError::DuplicateKey);
                        }
                        puts.push(k.clone());
                    }
                    dels.extend(then_dels);
                    dels.extend(else_dels);
                }
            }
            for op in ops {
                if let RequestOp::Put(p) = op {
                    if puts.contains(&p.key) || hit(&dels, &p.key) {
                        return Err(StoreError::DuplicateKey);
                    }
                    puts.push(p.key.clone());
                }
            }
            Ok((puts, dels))
        }
        check_shape(t)?;
        writes(&t.success)?;
        writes(&t.failure)?;
        // Depth-first branch choices, all against the state before the txn.
        fn path(m: &Model, t: &TxnRequest, out: &mut Vec<bool>) {
            let ok = t.compare.iter().all(|c| m.compare(c));
            out.push(ok);
            for op in if ok { &t.success } else { &t.failure } {
                if let RequestOp::Txn(n) = op {
                    path(m, n, out);
                }
            }
        }
        let mut choices = Vec::new();
        path(self, t, &mut choices);
        fn check(
            m: &Model,
            t: &TxnRequest,
            choices: &[bool],
            at: &mut usize,
        ) -> Result<(), StoreError> {
            let ok = choices[*at];
            *at += 1;
            for op in if ok { &t.success } else { &t.failure } {
                match op {
                    RequestOp::Put(p) => m.check_put(p)?,
                    RequestOp::Range(r) => {
                        let rev = if r.revision <= 0 {
                            m.current
                        } else {
                            r.revision
                        };
                        if rev > m.current {
                            return Err(StoreError::FutureRevision {
                                current_revision: m.current,
                            });
                        }
                        if rev < m.compact {
                            return Err(StoreError::Compacted {
                                compact_revision: m.compact,
                            });
                        }
                    }
                    RequestOp::Txn(n) => check(m, n, choices, at)?,
                    RequestOp::DeleteRange(_) => {}
                }
            }
            Ok(())
        }
        check(self, t, &choices, &mut 0)?;
        fn exec(m: &mut Model, t: &TxnRequest, choices: &[bool], at: &mut usize) -> TxnResponse {
            let ok = choices[*at];
            *at += 1;
            let mut responses = Vec::new();
            for op in if ok { &t.success } else { &t.failure } {
                responses.push(match op {
                    RequestOp::Put(p) => ResponseOp::Put(m.exec_put(p)),
                    RequestOp::DeleteRange(d) => ResponseOp::DeleteRange(m.exec_delete(d)),
                    RequestOp::Range(r) => {
                        ResponseOp::Range(m.range_in(r, m.view_rev()).unwrap_or_default())
                    }
                    RequestOp::Txn(n) => ResponseOp::Txn(exec(m, n, choices, at)),
                });
            }
            TxnResponse {
                succeeded: ok,
                responses,
                revision: 0,
            }
        }
        let mut response = exec(self, t, &choices, &mut 0);
        self.commit();
        fn stamp(r: &mut TxnResponse, rev: i64) {
            r.revision = rev;
            for op in &mut r.responses {
                match op {
                    ResponseOp::Put(p) => p.revision = rev,
                    ResponseOp::DeleteRange(d) => d.revision = rev,
                    ResponseOp::Txn(n) => stamp(n, rev),
                    ResponseOp::Range(_) => {}
                }
            }
        }
        stamp(&mut response, self.current);
        Ok(response)
    }

    fn compare(&self, c: &Compare) -> bool {
        let found: Vec<KeyValue> = self
            .keys()
            .iter()
            .filter(|k| in_range(&c.key, &c.range_end, k))
            .filter_map(|k| self.live(k))
            .collect();
        let check = |kv: &KeyValue| {
            let o = match &c.target {
                CompareTarget::Value(v) => kv.value.cmp(v),
                CompareTarget::Create(r) => kv.create_revision.cmp(r),
                CompareTarget::Mod(r) => kv.mod_revision.cmp(r),
                CompareTarget::Version(v) => kv.version.cmp(v),
                CompareTarget::Lease(l) => kv.lease.cmp(l),
            };
            match c.result {
                CompareResult::Equal => o.is_eq(),
                CompareResult::NotEqual => o.is_ne(),
                CompareResult::Greater => o.is_gt(),
                CompareResult::Less => o.is_lt(),
            }
        };
        if found.is_empty() {
            !matches!(c.target, CompareTarget::Value(_)) && check(&KeyValue::default())
        } else {
            found.iter().all(check)
        }
    }

    pub fn grant(&mut self, ttl: i64, now: i64) -> i64 {
        let id = self.next_lease;
        self.next_lease += 1;
        let ttl = ttl.max(MIN_LEASE_TTL);
        self.leases.insert(id, (ttl, now + ttl * 1000));
        id
    }

    pub fn revoke(&mut self, id: i64) -> Result<i64, StoreError> {
        if self.leases.remove(&id).is_none() {
            return Err(StoreError::LeaseNotFound);
        }
        for k in self.keys() {
            if self.live(&k).is_some_and(|kv| kv.lease == id) {
                let sub = self.pending.len() as i64;
                self.pending.push(Entry {
                    rev: self.current + 1,
                    sub,
                    key: k,
                    put: None,
                });
            }
        }
        self.commit();
        Ok(self.current)
    }

    pub fn keep_alive(&mut self, id: i64, now: i64) -> Result<i64, StoreError> {
        let lease = self.leases.get_mut(&id).ok_or(StoreError::LeaseNotFound)?;
        lease.1 = now + lease.0 * 1000;
        Ok(lease.0)
    }

    pub fn expire(&mut self, now: i64) -> Vec<i64> {
        let mut due: Vec<(i64, i64)> = self
            .leases
            .iter()
            .filter(|(_, l)| l.1 <= now)
            .map(|(&id, l)| (l.1, id))
            .collect();
        due.sort();
        due.into_iter()
            .map(|(_, id)| {
                let _ = self.revoke(id);
                id
            })
            .collect()
    }

    pub fn compact(&mut self, rev: i64) -> Result<(), StoreError> {
        if rev <= self.compact {
            return Err(StoreError::Compacted {
                compact_revision: self.compact,
            });
        }
        if rev > self.current {
            return Err(StoreError::FutureRevision {
                current_revision: self.current,
            });
        }
        self.compact = rev;
        Ok(())
    }

    /// The key right after the put `entry` (a nested txn may delete it later in the same
    /// revision, so `kv_at(rev)` would not show it).
    fn kv_after(&self, entry: &Entry) -> KeyValue {
        let mut kv: Option<KeyValue> = None;
        for e in self.log.iter().filter(|e| e.key == entry.key) {
            kv = match (&e.put, kv) {
                (None, _) => None,
                (Some((value, lease)), prev) => Some(KeyValue {
                    key: e.key.clone(),
                    create_revision: prev.as_ref().map_or(e.rev, |p| p.create_revision),
                    mod_revision: e.rev,
                    version: prev.as_ref().map_or(1, |p| p.version + 1),
                    value: value.clone(),
                    lease: *lease,
                }),
            };
            if (e.rev, e.sub) == (entry.rev, entry.sub) {
                break;
            }
        }
        kv.unwrap_or_default()
    }

    /// The events a watch on `[k, e)` from `start` should see, in order.
    pub fn events(
        &self,
        k: &[u8],
        e: &[u8],
        start: i64,
        no_put: bool,
        no_delete: bool,
    ) -> Vec<(i64, Event)> {
        self.log
            .iter()
            .filter(|x| x.rev >= start && in_range(k, e, &x.key))
            .filter(|x| if x.put.is_some() { !no_put } else { !no_delete })
            .map(|x| {
                let event = match &x.put {
                    Some(_) => Event {
                        kind: EventType::Put,
                        kv: self.kv_after(x),
                        prev_kv: None,
                    },
                    None => Event {
                        kind: EventType::Delete,
                        kv: KeyValue {
                            key: x.key.clone(),
                            mod_revision: x.rev,
                            ..KeyValue::default()
                        },
                        prev_kv: None,
                    },
                };
                (x.sub, event)
            })
            .collect()
    }
}

/// One random operation.
#[derive(Debug, Clone)]
pub enum Op {
    Put {
        k: u8,
        v: u8,
        lease: Option<u8>,
        prev_kv: bool,
        ignore_value: bool,
        ignore_lease: bool,
    },
    Delete {
        k: u8,
        e: Option<u8>,
        prev_kv: bool,
    },
    Range {
        k: u8,
        e: Option<u8>,
        back: u8,
        limit: u8,
        count_only: bool,
        keys_only: bool,
        sort: u8,
        min_mod: u8,
    },
    Txn {
        ck: u8,
        ce: Option<u8>,
        target: u8,
        result: u8,
        operand: u8,
        success: Vec<(u8, u8, Option<u8>)>,
        failure: Vec<(u8, u8, Option<u8>)>,
    },
    Grant {
        ttl: u8,
    },
    Revoke {
        pick: u8,
    },
    KeepAlive {
        pick: u8,
    },
    Tick {
        ms: u16,
    },
    Compact {
        back: u8,
    },
}

pub fn op() -> impl Strategy<Value = Op> {
    let k = 0..KEYS;
    let e = proptest::option::of(0..=KEYS);
    let simple = (0u8..4, 0..KEYS, proptest::option::of(0..=KEYS));
    prop_oneof![
        8 => (k.clone(), any::<u8>(), proptest::option::weighted(0.2, any::<u8>()), any::<bool>(), proptest::bool::weighted(0.1), proptest::bool::weighted(0.1))
            .prop_map(|(k, v, lease, prev_kv, ignore_value, ignore_lease)| Op::Put { k, v: v % 4, lease, prev_kv, ignore_value, ignore_lease }),
        2 => (k.clone(), e.clone(), any::<bool>()).prop_map(|(k, e, prev_kv)| Op::Delete { k, e, prev_kv }),
        3 => (k.clone(), e.clone(), 0u8..6, 0u8..4, proptest::bool::weighted(0.2), any::<bool>(), 0u8..15, 0u8..6)
            .prop_map(|(k, e, back, limit, count_only, keys_only, sort, min_mod)| Op::Range { k, e, back, limit, count_only, keys_only, sort, min_mod }),
        3 => (k.clone(), proptest::option::weighted(0.3, 0..=KEYS), 0u8..5, 0u8..4, 0u8..8, proptest::collection::vec(simple.clone(), 0..4), proptest::collection::vec(simple, 0..3))
            .prop_map(|(ck, ce, target, result, operand, success, failure)| Op::Txn { ck, ce, target, result, operand, success, failure }),
        1 => (0u8..8).prop_map(|ttl| Op::Grant { ttl }),
        1 => any::<u8>().prop_map(|pick| Op::Revoke { pick }),
        1 => any::<u8>().prop_map(|pick| Op::KeepAlive { pick }),
        1 => (0u16..4000).prop_map(|ms| Op::Tick { ms }),
        1 => (0u8..8).prop_map(|back| Op::Compact { back }),
    ]
}

fn simple_op((kind, k, e): (u8, u8, Option<u8>), v: u8) -> RequestOp {
    match kind {
        0 => RequestOp::Put(PutRequest {
            key: key(k),
            value: vec![b'0' + v % 4],
            ..PutRequest::default()
        }),
        1 => RequestOp::DeleteRange(DeleteRangeRequest {
            key: key(k),
            range_end: end(e),
            prev_kv: true,
        }),
        3 => RequestOp::Txn(TxnRequest {
            // "Create if absent, else delete": puts and deletes one level down.
            compare: vec![Compare {
                key: key(k),
                range_end: Vec::new(),
                target: CompareTarget::Version(0),
                result: CompareResult::Equal,
            }],
            success: vec![RequestOp::Put(PutRequest {
                key: key(k),
                value: vec![b'n'],
                ..PutRequest::default()
            })],
            failure: vec![RequestOp::DeleteRange(DeleteRangeRequest {
                key: key(e.unwrap_or(k).min(KEYS - 1)),
                range_end: Vec::new(),
                prev_kv: false,
            })],
        }),
        _ => RequestOp::Range(RangeRequest {
            key: key(k),
            range_end: end(e),
            ..RangeRequest::default()
        }),
    }
}

/// What one operation returned, comparable between store and model.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Put(Result<PutResponse, StoreError>),
    Delete(Result<DeleteRangeResponse, StoreError>),
    Range(Result<RangeResponse, StoreError>),
    Txn(Result<TxnResponse, StoreError>),
    Lease(Result<i64, StoreError>),
    Expired(Vec<i64>),
    Compact(Result<(), StoreError>),
}

/// Runs one op against something that behaves like the store.
pub trait Target {
    fn current(&self) -> i64;
    fn compacted(&self) -> i64;
    fn lease_ids(&self) -> Vec<i64>;
    fn do_put(&mut self, p: &PutRequest) -> Result<PutResponse, StoreError>;
    fn do_delete(&mut self, d: &DeleteRangeRequest) -> Result<DeleteRangeResponse, StoreError>;
    fn do_range(&self, r: &RangeRequest) -> Result<RangeResponse, StoreError>;
    fn do_txn(&mut self, t: &TxnRequest) -> Result<TxnResponse, StoreError>;
    fn do_grant(&mut self, ttl: i64, now: i64) -> i64;
    fn do_revoke(&mut self, id: i64) -> Result<i64, StoreError>;
    fn do_keep_alive(&mut self, id: i64, now: i64) -> Result<i64, StoreError>;
    fn do_expire(&mut self, now: i64) -> Vec<i64>;
    fn do_compact(&mut self, rev: i64) -> Result<(), StoreError>;
}

impl Target for Store {
    fn current(&self) -> i64 {
        self.current_revision()
    }
    fn compacted(&self) -> i64 {
        self.compact_revision()
    }
    fn lease_ids(&self) -> Vec<i64> {
        self.leases()
    }
    fn do_put(&mut self, p: &PutRequest) -> Result<PutResponse, StoreError> {
        self.put_with(
            &p.key,
            &p.value,
            PutOptions {
                lease: p.lease,
                prev_kv: p.prev_kv,
                ignore_value: p.ignore_value,
                ignore_lease: p.ignore_lease,
            },
        )
    }
    fn do_delete(&mut self, d: &DeleteRangeRequest) -> Result<DeleteRangeResponse, StoreError> {
        self.delete_range(d)
    }
    fn do_range(&self, r: &RangeRequest) -> Result<RangeResponse, StoreError> {
        self.range(r)
    }
    fn do_txn(&mut self, t: &TxnRequest) -> Result<TxnResponse, StoreError> {
        self.txn(t)
    }
    fn do_grant(&mut self, ttl: i64, now: i64) -> i64 {
        self.lease_grant(0, ttl, now).map_or(0, |g| g.id)
    }
    fn do_revoke(&mut self, id: i64) -> Result<i64, StoreError> {
        self.lease_revoke(id)
    }
    fn do_keep_alive(&mut self, id: i64, now: i64) -> Result<i64, StoreError> {
        self.lease_keep_alive(id, now)
    }
    fn do_expire(&mut self, now: i64) -> Vec<i64> {
        self.expire_leases(now, usize::MAX)
    }
    fn do_compact(&mut self, rev: i64) -> Result<(), StoreError> {
        self.compact(rev)
    }
}

impl Target for Model {
    fn current(&self) -> i64 {
        self.current
    }
    fn compacted(&self) -> i64 {
        self.compact
    }
    fn lease_ids(&self) -> Vec<i64> {
        self.leases.keys().copied().collect()
    }
    fn do_put(&mut self, p: &PutRequest) -> Result<PutResponse, StoreError> {
        self.put(p)
    }
    fn do_delete(&mut self, d: &DeleteRangeRequest) -> Result<DeleteRangeResponse, StoreError> {
        self.delete(d)
    }
    fn do_range(&self, r: &RangeRequest) -> Result<RangeResponse, StoreError> {
        self.range(r)
    }
    fn do_txn(&mut self, t: &TxnRequest) -> Result<TxnResponse, StoreError> {
        self.txn(t)
    }
    fn do_grant(&mut self, ttl: i64, now: i64) -> i64 {
        self.grant(ttl, now)
    }
    fn do_revoke(&mut self, id: i64) -> Result<i64, StoreError> {
        self.revoke(id)
    }
    fn do_keep_alive(&mut self, id: i64, now: i64) -> Result<i64, StoreError> {
        self.keep_alive(id, now)
    }
    fn do_expire(&mut self, now: i64) -> Vec<i64> {
        self.expire(now)
    }
    fn do_compact(&mut self, rev: i64) -> Result<(), StoreError> {
        self.compact(rev)
    }
}

/// Applies `op` at wall-clock `now` (advanced by `Tick`).
pub fn run<T: Target>(t: &mut T, op: &Op, now: &mut i64) -> Outcome {
    let pick_lease = |t: &T, pick: u8| {
        let ids = t.lease_ids();
        if ids.is_empty() || pick.is_multiple_of(5) {
            999
        } else {
            ids[pick as usize % ids.len()]
        }
    };
    match op {
        Op::Put {
            k,
            v,
            lease,
            prev_kv,
            ignore_value,
            ignore_lease,
        } => {
            let lease = lease.map_or(0, |p| pick_lease(t, p));
            let value = if *ignore_value {
                Vec::new()
            } else {
                vec![b'0' + v]
            };
            let ignore_lease = *ignore_lease && lease == 0;
            let p = PutRequest {
                key: key(*k),
                value,
                lease,
                prev_kv: *prev_kv,
                ignore_value: *ignore_value,
                ignore_lease,
            };
            Outcome::Put(t.do_put(&p))
        }
        Op::Delete { k, e, prev_kv } => Outcome::Delete(t.do_delete(&DeleteRangeRequest {
            key: key(*k),
            range_end: end(*e),
            prev_kv: *prev_kv,
        })),
        Op::Range {
            k,
            e,
            back,
            limit,
            count_only,
            keys_only,
            sort,
            min_mod,
        } => {
            let revision = if *back == 0 {
                0
            } else {
                t.current() - i64::from(*back) + 2
            };
            let sort_order =
                [SortOrder::None, SortOrder::Ascend, SortOrder::Descend][(*sort % 3) as usize];
            let sort_target = [
                SortTarget::Key,
                SortTarget::Version,
                SortTarget::Create,
                SortTarget::Mod,
                SortTarget::Value,
            ][(*sort / 3) as usize % 5];
            let min_mod_revision = if *min_mod == 0 {
                0
            } else {
                t.current() - i64::from(*min_mod)
            };
            Outcome::Range(t.do_range(&RangeRequest {
                key: key(*k),
                range_end: end(*e),
                revision,
                limit: *limit as usize,
                count_only: *count_only,
                keys_only: *keys_only,
                sort_order,
                sort_target,
                min_mod_revision,
                ..RangeRequest::default()
            }))
        }
        Op::Txn {
            ck,
            ce,
            target,
            result,
            operand,
            success,
            failure,
        } => {
            let o = i64::from(*operand)
                + if *target == 1 || *target == 2 {
                    t.current() - 4
                } else {
                    0
                };
            let target = match target {
                0 => CompareTarget::Version(o % 4),
                1 => CompareTarget::Create(o),
                2 => CompareTarget::Mod(o),
                3 => CompareTarget::Value(vec![b'0' + operand % 4]),
                _ => CompareTarget::Lease(0),
            };
            let result = [
                CompareResult::Equal,
                CompareResult::Greater,
                CompareResult::Less,
                CompareResult::NotEqual,
            ][*result as usize % 4];
            let compare = vec![Compare {
                key: key(*ck),
                range_end: ce.map_or(Vec::new(), |e| end(Some(e))),
                target,
                result,
            }];
            let success = success
                .iter()
                .enumerate()
                .map(|(i, s)| simple_op(*s, i as u8))
                .collect();
            let failure = failure
                .iter()
                .enumerate()
                .map(|(i, s)| simple_op(*s, i as u8 + 1))
                .collect();
            Outcome::Txn(t.do_txn(&TxnRequest {
                compare,
                success,
                failure,
            }))
        }
        Op::Grant { ttl } => Outcome::Lease(Ok(t.do_grant(i64::from(*ttl), *now))),
        Op::Revoke { pick } => {
            let id = pick_lease(t, *pick);
            Outcome::Lease(t.do_revoke(id))
        }
        Op::KeepAlive { pick } => {
            let id = pick_lease(t, *pick);
            Outcome::Lease(t.do_keep_alive(id, *now))
        }
        Op::Tick { ms } => {
            *now += i64::from(*ms);
            Outcome::Expired(t.do_expire(*now))
        }
        Op::Compact { back } => {
            let rev = t.current() - i64::from(*back) + 1;
            Outcome::Compact(t.do_compact(rev))
        }
    }
}

/// Every key at every retained revision.
pub fn full_view<T: Target>(t: &T) -> Vec<Result<RangeResponse, StoreError>> {
    let lo = t.compacted().max(1);
    (lo..=t.current())
        .map(|rev| {
            t.do_range(&RangeRequest {
                key: vec![0],
                range_end: vec![0],
                revision: rev,
                ..RangeRequest::default()
            })
        })
        .collect()
}

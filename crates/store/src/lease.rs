//! Leases (`E server/lease/lessor.go`): grant with TTL and id rules, revoke, keep-alive, and
//! expiry through an injected clock (`now_ms` arguments), so the store never reads a clock.
//! Revoking deletes every attached key in one revision, each a DELETE event.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use crate::{Store, StoreError};

/// `MaxLeaseTTL` — etcd server/lease/lessor.go.
pub const MAX_LEASE_TTL: i64 = 9_000_000_000;
/// `minTTL = ceil((3 * electionTicks) / 2 * heartbeat)` with the defaults (10 ticks, 100 ms) is
/// 1.5 s, rounded up to whole seconds — etcd server/etcdserver/server.go.
pub const MIN_LEASE_TTL: i64 = 2;
/// `defaultLeaseRevokeRate` per second — etcd server/lease/lessor.go; a sensible `max` for
/// `Store::expire_leases` called once a second.
pub const LEASE_REVOKE_RATE: usize = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lease {
    pub ttl: i64,
    pub deadline_ms: i64,
    pub keys: BTreeSet<Rc<[u8]>>,
}

#[derive(Debug, Default)]
pub(crate) struct Lessor {
    pub leases: BTreeMap<i64, Lease>,
    /// The next id handed out for a grant with id 0 (etcd picks at random; deterministic here
    /// so that WAL replay and snapshots reproduce the store).
    pub next_id: i64,
}

impl Lessor {
    pub fn contains(&self, id: i64) -> bool {
        self.leases.contains_key(&id)
    }

    pub fn attach(&mut self, id: i64, key: Rc<[u8]>) {
        if let Some(lease) = self.leases.get_mut(&id) {
            lease.keys.insert(key);
        }
    }

    pub fn detach(&mut self, id: i64, key: &[u8]) {
        if let Some(lease) = self.leases.get_mut(&id) {
            lease.keys.remove(key);
        }
    }

    /// Records a grant (live or replayed) and keeps automatic ids past it.
    pub fn insert(&mut self, id: i64, ttl: i64, deadline_ms: i64) {
        self.leases.insert(
            id,
            Lease {
                ttl,
                deadline_ms,
                keys: BTreeSet::new(),
            },
        );
        if id >= self.next_id {
            self.next_id = id.saturating_add(1);
        }
    }

    pub fn index_bytes(&self) -> usize {
        // B-tree entry plus a set node share per attached key.
        self.leases.len() * (std::mem::size_of::<Lease>() + 16)
            + self
                .leases
                .values()
                .map(|l| l.keys.len() * 24)
                .sum::<usize>()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaseGrantResponse {
    pub id: i64,
    /// The granted TTL in seconds (raised to the minimum if asked lower).
    pub ttl: i64,
    pub revision: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseTimeToLive {
    pub id: i64,
    /// Seconds left (rounded up), or -1 if expired and not yet revoked.
    pub ttl: i64,
    pub granted_ttl: i64,
    /// The attached keys, sorted, if asked for.
    pub keys: Vec<Vec<u8>>,
}

impl Store {
    /// Grants a lease of `ttl` seconds expiring at `now_ms + ttl * 1000`; `id` 0 lets the store
    /// pick. Example: `store.lease_grant(0, 30, now_ms)?.id`.
    pub fn lease_grant(
        &mut self,
        id: i64,
        ttl: i64,
        now_ms: i64,
    ) -> Result<LeaseGrantResponse, StoreError> {
        if ttl > MAX_LEASE_TTL {
            return Err(StoreError::LeaseTtlTooLarge);
        }
        let id = if id == 0 { self.next_lease_id() } else { id };
        if self.lessor.contains(id) {
            return Err(StoreError::LeaseExists);
        }
        let ttl = ttl.max(self.options.min_lease_ttl);
        let deadline_ms = deadline(now_ms, ttl);
        self.lessor.insert(id, ttl, deadline_ms);
        self.wal.lease_grant(id, ttl, deadline_ms);
        Ok(LeaseGrantResponse {
            id,
            ttl,
            revision: self.current_revision,
        })
    }

    fn next_lease_id(&self) -> i64 {
        let mut id = self.lessor.next_id.max(1);
        while self.lessor.contains(id) {
            id = id.wrapping_add(1).max(1);
        }
        id
    }

    /// Revokes a lease, deleting its keys (in key order, as etcd's `Revoke`) in one revision.
    /// Returns the store revision afterwards.
    pub fn lease_revoke(&mut self, id: i64) -> Result<i64, StoreError> {
        let Some(lease) = self.lessor.leases.get(&id) else {
            return Err(StoreError::LeaseNotFound);
        };
        let slots: Vec<u32> = lease
            .keys
            .iter()
            .filter_map(|k| self.index.get(k).copied())
            .collect();
        for slot in slots {
            self.exec_delete(slot);
        }
        self.lessor.leases.remove(&id);
        self.commit(id);
        Ok(self.current_revision)
    }

    /// Renews a lease to expire `ttl` seconds after `now_ms`; returns the TTL.
    pub fn lease_keep_alive(&mut self, id: i64, now_ms: i64) -> Result<i64, StoreError> {
        let Some(lease) = self.lessor.leases.get_mut(&id) else {
            return Err(StoreError::LeaseNotFound);
        };
        lease.deadline_ms = deadline(now_ms, lease.ttl);
        let (ttl, deadline_ms) = (lease.ttl, lease.deadline_ms);
        self.wal.lease_keep_alive(id, deadline_ms);
        Ok(ttl)
    }

    /// Renews every lease to its full TTL from `now_ms`, as etcd's lessor `Promote` does when
    /// a member starts serving: call it after recovering from a snapshot and WAL, so leases do
    /// not all expire for the time the process was down.
    pub fn lease_refresh_all(&mut self, now_ms: i64) {
        for lease in self.lessor.leases.values_mut() {
            lease.deadline_ms = deadline(now_ms, lease.ttl);
        }
        self.wal.lease_refresh_all(now_ms);
    }

    /// etcd's `LeaseTimeToLive`.
    pub fn lease_time_to_live(
        &self,
        id: i64,
        now_ms: i64,
        keys: bool,
    ) -> Result<LeaseTimeToLive, StoreError> {
        let lease = self
            .lessor
            .leases
            .get(&id)
            .ok_or(StoreError::LeaseNotFound)?;
        let left_ms = lease.deadline_ms.saturating_sub(now_ms);
        Ok(LeaseTimeToLive {
            id,
            ttl: if left_ms <= 0 {
                -1
            } else {
                left_ms.saturating_add(999) / 1000
            },
            granted_ttl: lease.ttl,
            keys: if keys {
                lease.keys.iter().map(|k| k.to_vec()).collect()
            } else {
                Vec::new()
            },
        })
    }

    /// The ids of all leases, ascending (`LeaseLeases`).
    pub fn leases(&self) -> Vec<i64> {
        self.lessor.leases.keys().copied().collect()
    }

    /// The earliest lease deadline, for the caller's timer.
    pub fn next_lease_deadline(&self) -> Option<i64> {
        self.lessor.leases.values().map(|l| l.deadline_ms).min()
    }

    /// Revokes up to `max` leases whose deadline is at or before `now_ms`, earliest first (ties
    /// by id); returns their ids. Each revoke is its own revision.
    pub fn expire_leases(&mut self, now_ms: i64, max: usize) -> Vec<i64> {
        let mut expired: Vec<(i64, i64)> = self
            .lessor
            .leases
            .iter()
            .filter(|(_, l)| l.deadline_ms <= now_ms)
            .map(|(&id, l)| (l.deadline_ms, id))
            .collect();
        expired.sort_unstable();
        expired.truncate(max);
        expired
            .into_iter()
            .filter_map(|(_, id)| self.lease_revoke(id).ok().map(|_| id))
            .collect()
    }
}

pub(crate) fn deadline(now_ms: i64, ttl: i64) -> i64 {
    now_ms.saturating_add(ttl.saturating_mul(1000))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PutOptions, RangeRequest};

    fn count(store: &Store) -> usize {
        let all = RangeRequest {
            key: vec![0],
            range_end: vec![0],
            ..RangeRequest::default()
        };
        store.range(&all).unwrap().count
    }

    #[test]
    fn grant_rules_follow_etcd() {
        let mut store = Store::new();
        let auto = store.lease_grant(0, 1, 0).unwrap();
        assert_eq!(auto.ttl, MIN_LEASE_TTL, "raised to the minimum TTL");
        assert_ne!(auto.id, 0);
        assert_eq!(
            store.lease_grant(auto.id, 10, 0),
            Err(StoreError::LeaseExists)
        );
        assert_eq!(
            store.lease_grant(7, MAX_LEASE_TTL + 1, 0),
            Err(StoreError::LeaseTtlTooLarge)
        );
        assert_eq!(store.lease_grant(7, MAX_LEASE_TTL, 0).unwrap().id, 7);
        let next = store.lease_grant(0, 10, 0).unwrap().id;
        assert_eq!(next, 8, "automatic ids continue past explicit ones");
        assert_eq!(store.lease_revoke(12345), Err(StoreError::LeaseNotFound));
        assert_eq!(
            store.lease_keep_alive(12345, 0),
            Err(StoreError::LeaseNotFound)
        );
        assert_eq!(store.current_revision(), 1, "grants take no revision");
    }

    #[test]
    fn revoke_deletes_attached_keys_in_one_revision() {
        let mut store = Store::new();
        let id = store.lease_grant(0, 10, 0).unwrap().id;
        for key in ["/b", "/a", "/c"] {
            store
                .put_with(
                    key.as_bytes(),
                    b"v",
                    PutOptions {
                        lease: id,
                        ..Default::default()
                    },
                )
                .unwrap();
        }
        store.put(b"/c", b"detached").unwrap();
        assert_eq!(
            store.lease_time_to_live(id, 0, true).unwrap().keys,
            [b"/a".to_vec(), b"/b".to_vec()]
        );
        let revision = store.lease_revoke(id).unwrap();
        assert_eq!(revision, 6);
        assert_eq!(count(&store), 1);
        assert!(store.leases().is_empty());
        // A lease with no keys revokes without a revision.
        let empty = store.lease_grant(0, 10, 0).unwrap().id;
        assert_eq!(store.lease_revoke(empty), Ok(6));
    }

    #[test]
    fn expiry_follows_the_injected_clock_and_keep_alive() {
        let mut store = Store::new();
        let short = store.lease_grant(0, 5, 1_000).unwrap().id;
        let long = store.lease_grant(0, 50, 1_000).unwrap().id;
        store
            .put_with(
                b"/s",
                b"v",
                PutOptions {
                    lease: short,
                    ..Default::default()
                },
            )
            .unwrap();
        store
            .put_with(
                b"/l",
                b"v",
                PutOptions {
                    lease: long,
                    ..Default::default()
                },
            )
            .unwrap();
        assert!(store.expire_leases(5_999, 10).is_empty());
        assert_eq!(
            store.lease_time_to_live(short, 5_500, false).unwrap().ttl,
            1
        );
        assert_eq!(store.lease_keep_alive(short, 5_000), Ok(5));
        assert!(store.expire_leases(9_999, 10).is_empty());
        assert_eq!(store.next_lease_deadline(), Some(10_000));
        assert_eq!(
            store.expire_leases(100_000, 1),
            vec![short],
            "at most max per call"
        );
        assert_eq!(store.expire_leases(100_000, 10), vec![long]);
        assert_eq!(count(&store), 0);
        assert_eq!(store.current_revision(), 5);
    }

    #[test]
    fn refresh_all_restarts_every_ttl() {
        let mut store = Store::new();
        let a = store.lease_grant(0, 5, 0).unwrap().id;
        let b = store.lease_grant(0, 60, 0).unwrap().id;
        store.lease_refresh_all(1_000_000);
        assert_eq!(
            store.lease_time_to_live(a, 1_000_000, false).unwrap().ttl,
            5
        );
        assert_eq!(
            store.lease_time_to_live(b, 1_000_000, false).unwrap().ttl,
            60
        );
        assert!(store.expire_leases(1_004_999, 10).is_empty());
    }
}

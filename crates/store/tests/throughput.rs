//! Rough in-process throughput and memory figures (run with
//! `cargo test --release -p kubewasm-store --test throughput -- --ignored --nocapture`).

// Inside proptest! blocks clippy does not see a test: a failing unwrap is a failing test
// (clippy.toml allows it in tests).
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use kubewasm_store::*;

fn report(label: &str, n: usize, started: Instant) {
    let secs = started.elapsed().as_secs_f64();
    println!("{label}: {n} in {secs:.3}s = {:.0}/s", n as f64 / secs);
}

#[test]
#[ignore]
fn puts_per_second() {
    let n = 1_000_000;
    let value = vec![7u8; 256];
    let keys: Vec<Vec<u8>> = (0..n).map(|i| format!("{i:08}").into_bytes()).collect();

    for wal in [false, true] {
        let mut store = Store::with_options(StoreOptions {
            wal,
            ..StoreOptions::default()
        });
        let mut wal_bytes = 0;
        let mut sink = Vec::with_capacity(1 << 20);
        let started = Instant::now();
        for (i, key) in keys.iter().enumerate() {
            store.put_with(key, &value, PutOptions::default()).unwrap();
            if i % 1024 == 1023 {
                // What the binding does per batch: hand the WAL bytes over, reuse the buffer.
                store.drain_wal_into(&mut sink);
                wal_bytes += sink.len();
                sink.clear();
            }
        }
        report(&format!("new keys, 256 B values, wal={wal}"), n, started);
        let started = Instant::now();
        for (i, key) in keys.iter().enumerate() {
            store.put_with(key, &value, PutOptions::default()).unwrap();
            if i % 1024 == 1023 {
                store.drain_wal_into(&mut sink);
                wal_bytes += sink.len();
                sink.clear();
            }
        }
        report(&format!("updates, wal={wal}"), n, started);
        println!(
            "index {} B for {} keys / {} versions = {:.1} B/key at 2 versions",
            store.index_bytes(),
            store.key_count(),
            store.version_count(),
            store.index_bytes() as f64 / store.key_count() as f64
        );
        let started = Instant::now();
        store.compact(store.current_revision()).unwrap();
        report("compact", n, started);
        println!(
            "index after compact {:.1} B/key",
            store.index_bytes() as f64 / store.key_count() as f64
        );
        println!("wal bytes {}", wal_bytes + store.take_wal().len());
    }

    let mut store = Store::new();
    let started = Instant::now();
    for _ in 0..n {
        store
            .put_with(b"/same", b"v", PutOptions::default())
            .unwrap();
    }
    report("one key", n, started);

    let mut store = Store::new();
    let w = store
        .watch(WatchRequest {
            key: vec![0],
            range_end: vec![0],
            ..WatchRequest::default()
        })
        .unwrap();
    let started = Instant::now();
    let mut events = 0;
    for (i, key) in keys.iter().enumerate() {
        store.put_with(key, &value, PutOptions::default()).unwrap();
        if i % 1000 == 999 {
            events += store
                .poll_watch_events(0)
                .iter()
                .map(|r| r.events.len())
                .sum::<usize>();
        }
    }
    report("puts with one watcher", n, started);
    assert_eq!(events, n);
    let _ = w;
}

/// Watch fan-out: 1,000 watchers on one prefix, 2,000 single-key puts, polled every 100 puts
/// (as `WasmStorage` does after each write batch) with the binding's default budget; an event
/// delivered to 1,000 watchers counts 1,000 times.
#[test]
#[ignore]
fn watch_fanout_deliveries_per_second() {
    const WATCHERS: usize = 1000;
    const WRITES: usize = 2000;
    let keys: Vec<Vec<u8>> = (0..100)
        .map(|i| format!("/registry/pods/default/pod-{i:04}").into_bytes())
        .collect();
    let value = vec![7u8; 256];
    for wire in [true, false] {
        let mut runs = Vec::new();
        for _ in 0..5 {
            let mut store = Store::with_options(StoreOptions {
                wal: false,
                ..StoreOptions::default()
            });
            for _ in 0..WATCHERS {
                store
                    .watch(WatchRequest {
                        key: b"/registry/pods/".to_vec(),
                        range_end: b"/registry/pods0".to_vec(),
                        prev_kv: true,
                        ..WatchRequest::default()
                    })
                    .unwrap();
            }
            store.poll_watch_events(0);
            let mut buf = Vec::new();
            let mut delivered = 0;
            let started = Instant::now();
            for i in 0..WRITES {
                store.put(&keys[i % keys.len()], &value).unwrap();
                if i % 100 == 99 {
                    while store.has_watch_events() {
                        if wire {
                            buf.clear();
                            delivered += store.poll_watch_batch_into(65_536, &mut buf);
                        } else {
                            delivered += store
                                .poll_watch_events(65_536)
                                .iter()
                                .map(|r| r.events.len())
                                .sum::<usize>();
                        }
                    }
                }
            }
            assert_eq!(delivered, WATCHERS * WRITES);
            runs.push(delivered as f64 / started.elapsed().as_secs_f64());
        }
        runs.sort_by(f64::total_cmp);
        let label = if wire {
            "encoded"
        } else {
            "as WatchResponse values"
        };
        println!(
            "watch fan-out, {WATCHERS} watchers x {WRITES} puts, {label}: median {:.1} M deliveries/s (runs {:?})",
            runs[runs.len() / 2] / 1e6,
            runs.iter().map(|r| (r / 1e5).round() / 10.0).collect::<Vec<_>>()
        );
    }
}

/// Catch-up fan-out: 1,000 watchers that start 2,000 revisions back (or fell that far behind)
/// read history when polled.
#[test]
#[ignore]
fn watch_catch_up_deliveries_per_second() {
    const WATCHERS: usize = 1000;
    const WRITES: usize = 2000;
    let value = vec![7u8; 256];
    let mut runs = Vec::new();
    for _ in 0..3 {
        let mut store = Store::with_options(StoreOptions {
            wal: false,
            ..StoreOptions::default()
        });
        for i in 0..WRITES {
            store
                .put(
                    format!("/registry/pods/default/pod-{:04}", i % 100).as_bytes(),
                    &value,
                )
                .unwrap();
        }
        for _ in 0..WATCHERS {
            store
                .watch(WatchRequest {
                    key: b"/registry/pods/".to_vec(),
                    range_end: b"/registry/pods0".to_vec(),
                    start_revision: 2,
                    prev_kv: true,
                    ..WatchRequest::default()
                })
                .unwrap();
        }
        let mut buf = Vec::new();
        let mut delivered = 0;
        let started = Instant::now();
        while store.has_watch_events() {
            buf.clear();
            delivered += store.poll_watch_batch_into(65_536, &mut buf);
        }
        assert_eq!(delivered, WATCHERS * WRITES);
        runs.push(delivered as f64 / started.elapsed().as_secs_f64());
    }
    runs.sort_by(f64::total_cmp);
    println!(
        "watch catch-up, {WATCHERS} watchers x {WRITES} revisions from history: median {:.1} M deliveries/s",
        runs[runs.len() / 2] / 1e6
    );
}

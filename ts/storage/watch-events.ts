/**
 * etcd watch events → Kubernetes watch events, as k8s.io/apiserver's etcd3 watcher converts them:
 * a PUT with version 1 is ADDED, any other PUT is MODIFIED, a DELETE is DELETED and carries the
 * object as it was (prev_kv). Events are grouped into one batch per revision.
 */
import type { WatchEvent } from './storage.js';

/** One etcd event, whichever backend produced it. */
export interface EtcdEvent {
  kind: 'put' | 'delete';
  key: string;
  value: Uint8Array;
  version: bigint;
  modRevision: bigint;
  prevValue?: Uint8Array | undefined;
}

export function toWatchBatches(events: Iterable<EtcdEvent>, withPrevValue: boolean): WatchEvent[][] {
  const batches: WatchEvent[][] = [];
  let batch: WatchEvent[] = [];
  for (const ev of events) {
    if (batch.length > 0 && (batch[0] as WatchEvent).revision !== ev.modRevision) {
      batches.push(batch);
      batch = [];
    }
    const prev = withPrevValue && ev.prevValue ? { prevValue: ev.prevValue } : {};
    if (ev.kind === 'delete') {
      batch.push({
        type: 'DELETED',
        key: ev.key,
        value: ev.prevValue ?? new Uint8Array(),
        revision: ev.modRevision,
        ...prev,
      });
    } else if (ev.version === 1n) {
      batch.push({ type: 'ADDED', key: ev.key, value: ev.value, revision: ev.modRevision });
    } else {
      batch.push({ type: 'MODIFIED', key: ev.key, value: ev.value, revision: ev.modRevision, ...prev });
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** A BOOKMARK: every event up to `revision` has been delivered. */
export function bookmark(revision: bigint): WatchEvent[] {
  return [{ type: 'BOOKMARK', key: '', value: new Uint8Array(), revision }];
}

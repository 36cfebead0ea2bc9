/**
 * core/v1 Events for components, with client-go's tools/record semantics (event.go, events_cache.go
 * at v0.32):
 * - an Event names its object in involvedObject, its component in source and reportingComponent,
 *   and is called `<object>.<UnixNano in hex>`;
 * - the EventCorrelator: the aggregator folds more than 10 similar events (same object and reason,
 *   different messages) within 10 minutes into one "(combined from similar events): …" event; the
 *   logger turns a repeat of the same event into a PATCH of the first one (count + 1,
 *   lastTimestamp, firstTimestamp kept); then the spam filter (a token bucket per source and object:
 *   burst 25, one token back every 5 minutes) drops what overflows;
 * - writes go out in order, off the caller's path, through a queue of at most 1000 events
 *   (maxQueuedEvents; more are dropped); `flush()` waits for them.
 *
 *   const recorder = new EventRecorder({ client, clock, component: 'default-scheduler' });
 *   recorder.record(pod, 'Normal', 'Scheduled', 'Successfully assigned default/p to n1');
 */
import type { KubeObject } from '../api/meta.js';
import { isNotFound, isStatusError } from '../api/status.js';
import { rfc3339 } from '../api/time.js';
import type { Event, EventSource, ObjectReference } from '../api/types/core/v1.js';
import type { Time } from '../api/types/meta/v1.js';
import type { DeepReadonly } from '../api/types/readonly.js';
import { type Clock, realClock } from '../sim/clock.js';
import type { Client } from './client.js';
import { RESOURCES } from './resources.js';

export type EventType = 'Normal' | 'Warning';

// tools/record/events_cache.go
const MAX_LRU_CACHE_ENTRIES = 4096;
const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
const DEFAULT_AGGREGATE_INTERVAL_SECONDS = 600;
const DEFAULT_SPAM_BURST = 25;
const DEFAULT_SPAM_QPS = 1 / 300;
// tools/record/event.go
const MAX_QUEUED_EVENTS = 1000;
const MAX_TRIES_PER_EVENT = 12;

/** A core/v1 Event as tools/record writes it (makeEvent): with every field it sets. */
export type CoreEvent = Event & {
  reason: string;
  message: string;
  source: EventSource & { component: string };
  firstTimestamp: Time;
  lastTimestamp: Time;
  count: number;
  type: EventType;
  reportingComponent: string;
  reportingInstance: string;
};

export interface EventRecorderOptions {
  client: Client;
  clock?: Clock;
  /** source.component and reportingComponent, e.g. `default-scheduler`. */
  component: string;
  /** source.host and reportingInstance (client-go leaves the host empty for most components). */
  host?: string;
  /** A write that failed for good; default: dropped (the component passes its logger's). */
  onError?: (err: unknown, event: KubeObject) => void;
  /** Spam filter: bucket size and refill rate per source and object. */
  spamBurst?: number;
  spamQps?: number;
}

/** A fixed-capacity map that forgets its least recently used entry (golang-lru as events_cache uses it). */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }
}

/** flowcontrol's token bucket, on the injected clock. */
class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    private readonly burst: number,
    private readonly qps: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }
  tryAccept(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** getEventKey: everything that makes two events the same one (the aggregate key and the message). */
function eventKey(e: CoreEvent): string {
  const [key, message] = aggregateKeys(e);
  return key + message;
}

/** getSpamKey: the source and the object. */
function spamKey(e: CoreEvent): string {
  const o = e.involvedObject;
  return [e.source.component, e.source.host ?? '', o.kind, o.namespace, o.name, o.uid, o.apiVersion]
    .map((x) => x ?? '')
    .join('');
}

/** EventAggregatorByReasonFunc: the aggregate key (all but the message) and the local key (the message). */
function aggregateKeys(e: CoreEvent): [string, string] {
  const o = e.involvedObject;
  const key = [
    e.source.component,
    e.source.host ?? '',
    o.kind,
    o.namespace,
    o.name,
    o.fieldPath,
    o.uid,
    o.apiVersion,
    e.type,
    e.reason,
  ]
    .map((x) => x ?? '')
    .join('');
  return [key, e.message ?? ''];
}

interface Logged {
  count: number;
  firstTimestamp: string;
  name: string;
}

export class EventRecorder {
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly component: string;
  private readonly host: string;
  private readonly onError: (err: unknown, event: KubeObject) => void;
  private readonly spamBurst: number;
  private readonly spamQps: number;
  private readonly spam = new Lru<TokenBucket>(MAX_LRU_CACHE_ENTRIES);
  private readonly aggregate = new Lru<{ localKeys: Set<string>; lastTimestamp: number }>(MAX_LRU_CACHE_ENTRIES);
  private readonly logged = new Lru<Logged>(MAX_LRU_CACHE_ENTRIES);
  private queued = 0;
  private tail: Promise<void> = Promise.resolve();
  private seq = 0;
  /** Events the spam filter or a full queue dropped (for tests and diagnostics). */
  dropped = 0;

  constructor(options: EventRecorderOptions) {
    this.client = options.client;
    this.clock = options.clock ?? realClock;
    this.component = options.component;
    this.host = options.host ?? '';
    this.onError = options.onError ?? (() => {});
    this.spamBurst = options.spamBurst ?? DEFAULT_SPAM_BURST;
    this.spamQps = options.spamQps ?? DEFAULT_SPAM_QPS;
  }

  /** Records an event about `obj` (recorder.Event); never throws, never waits. */
  record(obj: DeepReadonly<KubeObject>, type: EventType, reason: string, message: string): void {
    if (this.queued >= MAX_QUEUED_EVENTS) {
      this.dropped++;
      return;
    }
    const event = this.build(obj, type, reason, message);
    const now = this.clock.now();
    // EventCorrelate: aggregate and observe first (a dropped event still counts), then the spam filter.
    const correlated = this.correlate(event, now);
    const sk = spamKey(correlated);
    let bucket = this.spam.get(sk);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.spamBurst, this.spamQps, now);
      this.spam.set(sk, bucket);
    }
    if (!bucket.tryAccept(now)) {
      this.dropped++;
      return;
    }
    this.queued++;
    this.tail = this.tail.then(() => this.write(correlated)).finally(() => this.queued--);
  }

  /** Resolves once every event recorded so far has been written (or given up on). */
  async flush(): Promise<void> {
    let last: Promise<void> | undefined;
    while (last !== this.tail) {
      last = this.tail;
      await last;
    }
  }

  /** The Event makeEvent builds for `obj`, before correlation (exported for tests). */
  build(obj: DeepReadonly<KubeObject>, type: EventType, reason: string, message: string): CoreEvent {
    const meta = obj.metadata ?? {};
    const now = this.clock.now();
    // `%v.%x` of UnixNano; a sequence keeps names apart when a virtual clock stands still.
    const stamp = (BigInt(now) * 1_000_000n + BigInt(this.seq++ % 1_000_000)).toString(16);
    const time = rfc3339(now);
    const namespace = meta.namespace || 'default';
    const involvedObject: ObjectReference = {};
    if (obj.kind) involvedObject.kind = obj.kind;
    if (meta.namespace) involvedObject.namespace = meta.namespace;
    if (meta.name) involvedObject.name = meta.name;
    if (meta.uid) involvedObject.uid = meta.uid;
    if (obj.apiVersion) involvedObject.apiVersion = obj.apiVersion;
    if (meta.resourceVersion) involvedObject.resourceVersion = meta.resourceVersion;
    const source: CoreEvent['source'] = { component: this.component };
    if (this.host !== '') source.host = this.host;
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${meta.name ?? ''}.${stamp}`, namespace },
      involvedObject,
      reason,
      message,
      source,
      firstTimestamp: time,
      lastTimestamp: time,
      count: 1,
      type,
      reportingComponent: this.component,
      reportingInstance: this.host,
    };
  }

  /** EventCorrelator.EventCorrelate: aggregation, then the logger's dedupe (count, first timestamp, name). */
  private correlate(event: CoreEvent, now: number): CoreEvent {
    const [aggKey, localKey] = aggregateKeys(event);
    let record = this.aggregate.get(aggKey);
    if (record === undefined || now - record.lastTimestamp > DEFAULT_AGGREGATE_INTERVAL_SECONDS * 1000) {
      record = { localKeys: new Set(), lastTimestamp: now };
    }
    record.localKeys.add(localKey);
    record.lastTimestamp = now;
    this.aggregate.set(aggKey, record);
    let out = event;
    let key = eventKey(event);
    if (record.localKeys.size >= DEFAULT_AGGREGATE_MAX_EVENTS) {
      out = { ...event, message: `(combined from similar events): ${event.message}` };
      key = aggKey;
    }
    const last = this.logged.get(key);
    if (last !== undefined) {
      out = {
        ...out,
        count: last.count + 1,
        firstTimestamp: last.firstTimestamp,
        metadata: { ...out.metadata, name: last.name },
      };
    }
    this.logged.set(key, { count: out.count, firstTimestamp: out.firstTimestamp, name: out.metadata?.name ?? '' });
    return out;
  }

  /** recordToSink: create the first, PATCH the repeats (a vanished one is created anew); retried. */
  private async write(event: CoreEvent): Promise<void> {
    const ns = event.metadata?.namespace ?? 'default';
    for (let attempt = 1; ; attempt++) {
      try {
        if (event.count > 1) {
          try {
            await this.client.patch(RESOURCES.events, ns, event.metadata?.name ?? '', 'merge', {
              count: event.count,
              lastTimestamp: event.lastTimestamp,
              message: event.message,
            });
            return;
          } catch (err) {
            if (!isNotFound(err)) throw err;
            const { resourceVersion: _rv, ...metadata } = event.metadata ?? {};
            await this.client.create(RESOURCES.events, ns, { ...event, metadata });
            return;
          }
        }
        await this.client.create(RESOURCES.events, ns, event);
        return;
      } catch (err) {
        // recordEvent: AlreadyExists and other API errors are not retried; only transport failures are.
        if (isStatusError(err) || attempt >= MAX_TRIES_PER_EVENT) {
          this.onError(err, event);
          return;
        }
        await new Promise<void>((resolve) =>
          this.clock.setTimer(resolve, 10_000 * (attempt === 1 ? Math.random() : 1)),
        );
      }
    }
  }
}

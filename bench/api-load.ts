/**
 * The clients of `kubewasm bench api`: N concurrent clients issuing one kind of request for a fixed
 * time (closed loop: each client sends its next request when the last one answered), through the
 * apiserver's handler in-process, or over TLS on loopback with HTTP/1.1 keep-alive (a node:https
 * Agent, one socket per client) or HTTP/2 (one connection, one stream per request, as client-go).
 *
 * Socket clients run in a worker thread (this module, answering when it sees CLIENT_TASK below),
 * so client and server do not share one event loop; from source, where a .ts module cannot be a
 * worker, they run in the server's thread and the rows say so.
 */

import { type ClientHttp2Session, connect as http2Connect } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { createCertificateAuthority, issueCertificate, type KeyPair, type ServingTls } from '../ts/apiserver/certs.js';
import type { ApiServer } from '../ts/apiserver/server.js';
import { podBodies } from './api-pods.js';

export type Op = 'create' | 'get' | 'list' | 'update';
export type Protocol = 'h1' | 'h2';
/** How a watch travels over a socket: a chunked HTTP/1.1 or HTTP/2 body, or WebSocket messages. */
export type WatchProtocol = Protocol | 'ws';

/** One request's outcome: status, body bytes, and the body text when the status is an error. */
export interface Answer {
  status: number;
  bytes: number;
  error?: string;
}

/** Sends one request (`path` from the server root) and reads the whole answer. */
export type Send = (method: string, path: string, body?: string) => Promise<Answer>;

export interface LoadSpec {
  op: Op;
  concurrency: number;
  durationMs: number;
  /** Makes created names unique across runs. */
  tag: string;
  /** Where pods are created, read and updated. */
  namespace: string;
  /** `<namespace>/pods` holds pods named seedName(0 … seedPods-1) for get and update. */
  seedPods: number;
  /** The namespace the list op lists. */
  listNamespace: string;
}

export interface LoadResult {
  ops: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
}

export const seedName = (i: number): string => `seed-${i}`;

/** Each op's success status. */
const OK: Record<Op, number> = { create: 201, get: 200, list: 200, update: 200 };

/** The q-quantile (0…1) of `sorted` by nearest rank. */
export function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** Runs `spec` through `send`; fails on the first answer that is not the op's success status. */
export async function runLoad(send: Send, spec: LoadSpec): Promise<LoadResult> {
  const body = podBodies(spec.namespace);
  const base = `/api/v1/namespaces/${spec.namespace}/pods`;
  const listPath = `/api/v1/namespaces/${spec.listNamespace}/pods`;
  const latencies: number[] = [];
  let ops = 0;
  const start = performance.now();
  const deadline = start + spec.durationMs;
  const client = async (k: number): Promise<void> => {
    for (let i = 0; performance.now() < deadline; i++) {
      let answer: Answer;
      const t0 = performance.now();
      switch (spec.op) {
        case 'create':
          answer = await send('POST', base, body(`${spec.tag}-${k}-${i}`, '0'));
          break;
        case 'get':
          answer = await send('GET', `${base}/${seedName((k * 7919 + i) % spec.seedPods)}`);
          break;
        case 'list':
          answer = await send('GET', listPath);
          break;
        case 'update': {
          // Each client owns the seed pods ≡ k (mod concurrency): no two clients write one pod.
          const owned = Math.max(1, Math.floor((spec.seedPods - k - 1) / spec.concurrency) + 1);
          const name = seedName(k + (i % owned) * spec.concurrency);
          answer = await send('PUT', `${base}/${name}`, body(name, `${spec.tag}-${i}`));
          break;
        }
      }
      latencies.push(performance.now() - t0);
      if (answer.status !== OK[spec.op]) {
        throw new Error(`${spec.op}: HTTP ${answer.status} (expected ${OK[spec.op]}): ${answer.error ?? ''}`);
      }
      ops++;
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, (_, k) => client(k)));
  const seconds = (performance.now() - start) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return { ops, seconds, p50Ms: quantile(sorted, 0.5), p99Ms: quantile(sorted, 0.99) };
}

/** The answer of a response read to its end: bytes counted, text kept only for errors. */
async function readAnswer(res: Response): Promise<Answer> {
  if (res.status >= 300) {
    const text = await res.text();
    return { status: res.status, bytes: text.length, error: text };
  }
  return { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
}

/**
 * In-process: what ts/client's inProcessTransport hands the handler — a DirectCall to handleCall
 * (no web Request) when the apiserver has it, else a Request per call.
 */
export function inProcessSender(api: Pick<ApiServer, 'handle' | 'handleCall'>, token: string): Send {
  const auth = `Bearer ${token}`;
  return async (method, path, body) => {
    const headers: Record<string, string> = { Authorization: auth, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const url = `https://kubewasm.invalid${path}`;
    const call = { method, url, headers, ...(body !== undefined ? { body } : {}) };
    const res = await (api.handleCall !== undefined ? api.handleCall(call) : api.handle(new Request(url, call)));
    return readAnswer(res);
  };
}

/** A new CA and the serving certificate for 127.0.0.1 the benchmark's TLS servers use. */
export async function loopbackTls(): Promise<{ ca: KeyPair; serving: ServingTls }> {
  const ca = await createCertificateAuthority();
  const serving = await issueCertificate(
    ca,
    { commonName: 'kube-apiserver' },
    { serving: { dnsNames: ['localhost'], ips: ['127.0.0.1'] } },
  );
  return { ca, serving };
}

export interface TlsTarget {
  port: number;
  /** The cluster CA (PEM) the client trusts. */
  ca: string;
  token: string;
}

export interface SocketClient {
  send: Send;
  close(): void;
}

/** HTTP/1.1 keep-alive over TLS with up to `sockets` connections (one per concurrent client). */
export function h1Client(target: TlsTarget, sockets: number): SocketClient {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets, ca: target.ca });
  const auth = `Bearer ${target.token}`;
  const send: Send = (method, path, body) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { Authorization: auth, Accept: 'application/json' };
      if (body !== undefined) {
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = Buffer.byteLength(body);
      }
      const req = httpsRequest({ host: '127.0.0.1', port: target.port, method, path, headers, agent }, (res) => {
        const status = res.statusCode ?? 0;
        let bytes = 0;
        const errorChunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (status >= 300) errorChunks.push(chunk);
        });
        res.on('end', () =>
          resolve(status >= 300 ? { status, bytes, error: Buffer.concat(errorChunks).toString() } : { status, bytes }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/**
 * One HTTP/2 connection with client-go's flow-control windows
 * (golang.org/x/net/http2/transport.go: transportDefaultStreamFlow = 4 MiB,
 * transportDefaultConnFlow = 1 GiB), so a large LIST is not throttled by the 64 KiB default.
 */
async function openH2Session(target: TlsTarget): Promise<ClientHttp2Session> {
  const session = http2Connect(`https://127.0.0.1:${target.port}`, {
    ca: target.ca,
    settings: { initialWindowSize: 4 << 20 },
  });
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  session.setLocalWindowSize(1 << 30);
  return session;
}

/** HTTP/2 over TLS: every request a stream of one connection, as client-go sends them. */
export async function h2Client(target: TlsTarget): Promise<SocketClient> {
  const session = await openH2Session(target);
  const auth = `Bearer ${target.token}`;
  const send: Send = (method, path, body) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {
        ':method': method,
        ':path': path,
        authorization: auth,
        accept: 'application/json',
      };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const stream = session.request(headers, { endStream: body === undefined });
      let status = 0;
      let bytes = 0;
      const errorChunks: Buffer[] = [];
      stream.on('response', (h) => {
        status = Number(h[':status']);
      });
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (status >= 300) errorChunks.push(chunk);
      });
      stream.on('end', () =>
        resolve(status >= 300 ? { status, bytes, error: Buffer.concat(errorChunks).toString() } : { status, bytes }),
      );
      stream.on('error', reject);
      if (body !== undefined) stream.end(body);
    });
  return { send, close: () => session.close() };
}

export async function socketClient(protocol: Protocol, target: TlsTarget, concurrency: number): Promise<SocketClient> {
  return protocol === 'h1' ? h1Client(target, concurrency) : h2Client(target);
}

/** Opens every connection the run will use (TLS handshakes are not part of the measurement). */
async function warmConnections(client: SocketClient, concurrency: number): Promise<void> {
  await Promise.all(Array.from({ length: concurrency }, () => client.send('GET', '/healthz')));
}

// --- watch ----------------------------------------------------------------------------------------

/** A watch run that sees no new event at its slowest watcher for this long has failed. */
export const WATCH_STALL_MS = 20_000;

/** Counts watch events (one JSON line each) arriving on one stream. */
export class LineCounter {
  count = 0;
  /** The server ended the stream (a watcher it dropped as too slow, or an error). */
  ended = false;
  add(chunk: Uint8Array): void {
    let at = chunk.indexOf(10);
    while (at !== -1) {
      this.count++;
      at = chunk.indexOf(10, at + 1);
    }
  }
}

/** Opens `watchers` HTTP/1.1 watch streams on `path` (one connection each), counting their events. */
async function h1Watchers(target: TlsTarget, path: string, watchers: number) {
  const counters = Array.from({ length: watchers }, () => new LineCounter());
  const agent = new Agent({ keepAlive: true, maxSockets: watchers, ca: target.ca });
  await Promise.all(
    counters.map(
      (counter) =>
        new Promise<void>((resolve, reject) => {
          const headers = { Authorization: `Bearer ${target.token}`, Accept: 'application/json' };
          const req = httpsRequest({ host: '127.0.0.1', port: target.port, path, agent, headers }, (res) => {
            if (res.statusCode !== 200) reject(new Error(`watch: HTTP ${res.statusCode}`));
            res.on('data', (chunk: Buffer) => counter.add(chunk));
            res.on('error', () => {});
            res.on('close', () => {
              counter.ended = true;
            });
            resolve();
          });
          req.on('error', reject);
          req.end();
        }),
    ),
  );
  return { counters, closers: [() => agent.destroy()] };
}

/**
 * Opens `watchers` WebSocket watches on `path` (node/watch-websocket.ts: one text message per
 * event; an Origin is required, as x/net/websocket's handshake checks), counting their events.
 */
async function wsWatchers(target: TlsTarget, path: string, watchers: number) {
  const counters = Array.from({ length: watchers }, () => new LineCounter());
  const sockets: WebSocket[] = [];
  await Promise.all(
    counters.map(
      (counter) =>
        new Promise<void>((resolve, reject) => {
          const ws = new WebSocket(`wss://127.0.0.1:${target.port}${path}`, {
            ca: target.ca,
            headers: { Authorization: `Bearer ${target.token}`, Origin: `https://127.0.0.1:${target.port}` },
          });
          sockets.push(ws);
          ws.on('open', () => resolve());
          ws.on('unexpected-response', (_req, res) => reject(new Error(`watch: HTTP ${res.statusCode}`)));
          ws.on('error', reject);
          ws.on('message', () => {
            counter.count++;
          });
          ws.on('close', () => {
            counter.ended = true;
          });
        }),
    ),
  );
  return { counters, closers: sockets.map((ws) => () => ws.terminate()) };
}

/** Opens `watchers` HTTP/2 watch streams on `path`, all on one connection, counting their events. */
async function h2Watchers(target: TlsTarget, path: string, watchers: number) {
  const session = await openH2Session(target);
  const counters = Array.from({ length: watchers }, () => new LineCounter());
  await Promise.all(
    counters.map(
      (counter) =>
        new Promise<void>((resolve, reject) => {
          const stream = session.request(
            { ':method': 'GET', ':path': path, authorization: `Bearer ${target.token}`, accept: 'application/json' },
            { endStream: true },
          );
          stream.on('response', (h) => {
            if (Number(h[':status']) !== 200) reject(new Error(`watch: HTTP ${String(h[':status'])}`));
            else resolve();
          });
          stream.on('data', (chunk: Buffer) => counter.add(chunk));
          stream.on('error', () => {});
          stream.on('close', () => {
            counter.ended = true;
          });
        }),
    ),
  );
  return { counters, closers: [() => session.destroy()] };
}

// --- the worker -----------------------------------------------------------------------------------

const CLIENT_TASK = 'kubewasm-bench-api-client';

export type ClientTask =
  | { kind: 'load'; protocol: Protocol; target: TlsTarget; spec: LoadSpec }
  | { kind: 'get'; protocol: Protocol; target: TlsTarget; path: string }
  | {
      kind: 'watch';
      protocol: WatchProtocol;
      target: TlsTarget;
      path: string;
      watchers: number;
      /** Events each watcher must see before the task answers. */
      events: number;
    };

/** What a task answers; `get`: time to the last byte; `watch`: when the last event arrived. */
export type ClientAnswer = LoadResult | { seconds: number; bytes: number } | { doneAt: number };

/** Progress of a watch task: the fewest events any watcher has seen so far. */
export interface WatchProgress {
  ready?: boolean;
  slowest: number;
}

/** An absolute time in ms shared by threads (performance.now() has a per-thread origin). */
export const wallMs = (): number => performance.timeOrigin + performance.now();

/** Runs one client task in this thread; `onProgress` hears from watch tasks. */
export async function runClientTask(task: ClientTask, onProgress: (p: WatchProgress) => void): Promise<ClientAnswer> {
  switch (task.kind) {
    case 'load': {
      const client = await socketClient(task.protocol, task.target, task.spec.concurrency);
      try {
        await warmConnections(client, task.spec.concurrency);
        return await runLoad(client.send, task.spec);
      } finally {
        client.close();
      }
    }
    case 'get': {
      const client = await socketClient(task.protocol, task.target, 1);
      try {
        await warmConnections(client, 1);
        const start = performance.now();
        const answer = await client.send('GET', task.path);
        if (answer.status !== 200) throw new Error(`GET ${task.path}: HTTP ${answer.status}: ${answer.error ?? ''}`);
        return { seconds: (performance.now() - start) / 1000, bytes: answer.bytes };
      } finally {
        client.close();
      }
    }
    case 'watch': {
      const open = { h1: h1Watchers, h2: h2Watchers, ws: wsWatchers }[task.protocol];
      const opened = await open(task.target, task.path, task.watchers);
      onProgress({ ready: true, slowest: 0 });
      const slowest = () => opened.counters.reduce((m, c) => Math.min(m, c.count), Number.POSITIVE_INFINITY);
      try {
        let last = -1;
        let lastChange = performance.now();
        while (slowest() < task.events) {
          await new Promise((r) => setTimeout(r, 2));
          const now = slowest();
          onProgress({ slowest: now });
          const cut = opened.counters.find((c) => c.ended && c.count < task.events);
          if (cut)
            throw new Error(
              `watch (${task.protocol}): the server ended a watch after ${cut.count} of ${task.events} events`,
            );
          if (now !== last) {
            last = now;
            lastChange = performance.now();
          } else if (performance.now() - lastChange > WATCH_STALL_MS) {
            const counts = opened.counters.map((c) => c.count);
            throw new Error(
              `watch (${task.protocol}): no progress for ${WATCH_STALL_MS / 1000} s; events seen per watcher: min ${Math.min(...counts)}, max ${Math.max(...counts)} of ${task.events}`,
            );
          }
        }
        return { doneAt: wallMs() };
      } finally {
        for (const close of opened.closers) close();
      }
    }
  }
}

/**
 * The socket clients' thread. `call` runs a task there; from source (a .ts module cannot be a
 * worker) it runs in this thread instead and `inThread` is true.
 */
export class ClientThread {
  private worker: Worker | undefined;
  private next = 0;
  private readonly pending = new Map<
    number,
    { resolve: (a: ClientAnswer) => void; reject: (e: Error) => void; onProgress: (p: WatchProgress) => void }
  >();
  inThread = false;

  static async start(): Promise<ClientThread> {
    const t = new ClientThread();
    try {
      const worker = new Worker(new URL(import.meta.url), { workerData: { task: CLIENT_TASK } });
      await new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`client worker exited with code ${code}`)));
      });
      worker.on('message', (m: { id: number; answer?: ClientAnswer; error?: string; progress?: WatchProgress }) => {
        const p = t.pending.get(m.id);
        if (!p) return;
        if (m.progress) return p.onProgress(m.progress);
        t.pending.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.answer as ClientAnswer);
      });
      worker.unref();
      t.worker = worker;
    } catch {
      t.inThread = true;
    }
    return t;
  }

  call(task: ClientTask, onProgress: (p: WatchProgress) => void = () => {}): Promise<ClientAnswer> {
    if (!this.worker) return runClientTask(task, onProgress);
    const id = this.next++;
    const worker = this.worker;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      worker.postMessage({ id, task });
    });
  }

  async stop(): Promise<void> {
    await this.worker?.terminate();
  }
}

// In the client worker started by ClientThread.start: run tasks as they come.
if (!isMainThread && (workerData as { task?: unknown } | null)?.task === CLIENT_TASK && parentPort) {
  const port = parentPort;
  port.on('message', (m: { id: number; task: ClientTask }) => {
    runClientTask(m.task, (progress) => port.postMessage({ id: m.id, progress })).then(
      (answer) => port.postMessage({ id: m.id, answer }),
      (err: unknown) => port.postMessage({ id: m.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
  port.postMessage({ ready: true });
}

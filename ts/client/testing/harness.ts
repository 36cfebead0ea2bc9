/**
 * The client's test harness: an in-process apiserver (ts/apiserver/testing/test-server.ts) reached through
 * either transport. The HTTP one goes through `byteFetch`, which serializes every request and
 * response to bytes and back — and hands response bodies over in small chunks — so bodies and
 * watch streams really cross a byte boundary, as over a socket.
 */
import { type TestServer, TOKEN, testServer } from '../../apiserver/testing/test-server.js';
import { type Client, createClient } from '../client.js';
import { httpTransport, inProcessTransport, type RequestHandler, type Transport } from '../transport.js';

export type TransportKind = 'in-process' | 'http';
export const TRANSPORT_KINDS: readonly TransportKind[] = ['in-process', 'http'];

export interface Harness {
  server: TestServer;
  transport: Transport;
  client: Client;
}

/** Bytes in each response chunk byteFetch hands over: small, so lines and UTF-8 sequences split. */
const CHUNK = 7;

function serializeHead(first: string, headers: Headers): string {
  const lines = [first];
  headers.forEach((value, name) => {
    lines.push(`${name}: ${value}`);
  });
  return `${lines.join('\r\n')}\r\n\r\n`;
}

function parseHead(text: string): { first: string; headers: Headers; rest: string } {
  const end = text.indexOf('\r\n\r\n');
  const [first = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return { first, headers, rest: text.slice(end + 4) };
}

/** A fetch that routes to `handler` through a byte serialization of requests and responses. */
export function byteFetch(handler: RequestHandler): (request: Request) => Promise<Response> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return async (request) => {
    const body = await request.text();
    const wire = encoder.encode(serializeHead(`${request.method} ${request.url}`, request.headers) + body);
    const { first, headers, rest } = parseHead(decoder.decode(wire));
    const [method = 'GET', url = ''] = first.split(' ');
    const init: RequestInit = { method, headers };
    if (rest !== '') init.body = rest;
    const res = await handler.handle(new Request(url, init));

    const head = parseHead(serializeHead(`${res.status}`, res.headers));
    const source = res.body?.getReader();
    let pending = new Uint8Array(0);
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (pending.length === 0) {
          const next = source === undefined ? { done: true as const } : await source.read();
          if (next.done) {
            controller.close();
            return;
          }
          pending = next.value;
        }
        controller.enqueue(pending.slice(0, CHUNK));
        pending = pending.slice(CHUNK);
      },
      cancel(reason) {
        return source?.cancel(reason);
      },
    });
    const status = Number(head.first);
    return new Response(status === 204 || status === 304 ? null : stream, { status, headers: head.headers });
  };
}

/** A fresh test apiserver and a client over the transport `kind`. */
export async function harness(kind: TransportKind): Promise<Harness> {
  const server = await testServer();
  const transport =
    kind === 'in-process'
      ? inProcessTransport(server.api, TOKEN)
      : httpTransport({ server: 'https://kubewasm.test:6443', token: TOKEN, fetch: byteFetch(server.api) });
  return { server, transport, client: createClient(transport) };
}

/** Waits (real time, a few ms at a time) until `check` holds; fails after `ms`. */
export async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('eventually: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

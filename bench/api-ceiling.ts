/**
 * The ceilings of the create benchmark on this machine: how many creates per second 100 clients
 * could get if the apiserver did nothing but the work no apiserver can skip.
 *
 * - in-process, `json-only`: each create only JSON.parse's its body and JSON.stringify's the object
 *   (the least any JavaScript apiserver that reads a body and stores an encoding does).
 * - HTTPS, `trivial-h2`: the node/http2.ts front with a handler that answers 201 with the body it
 *   read; `raw-node-http2`: node:http2's stream API with the same answer, no web Request/Response.
 *   Clients in the worker thread, as the create rows.
 *
 * The rows put the issue's targets beside what the machine allows, so a target above its
 * ceiling reads as such.
 */
import { createSecureServer, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { serveHttp2 } from '../ts/apiserver/node/http2.js';
import type { ApiServer } from '../ts/apiserver/server.js';
import { type ClientThread, type LoadResult, type LoadSpec, loopbackTls, runLoad, type Send } from './api-load.js';

export interface Ceiling {
  impl: 'json-only' | 'trivial-h2' | 'raw-node-http2';
  result: LoadResult;
}

/** An in-process "apiserver" that parses and re-encodes each body, and nothing else. */
const jsonOnly: Send = async (_method, _path, body) => {
  const text = JSON.stringify(JSON.parse(body ?? '{}'));
  return { status: 201, bytes: text.length };
};

const created = (body: string) => new Response(body, { status: 201, headers: { 'content-type': 'application/json' } });
const utf8 = new TextDecoder();

/** Answers 201 with the request's body: an apiserver with no work in it, reached as the fronts reach one. */
const echo: ApiServer = {
  handle: async (request) => created(await request.text()),
  handleCall: async (call) =>
    created(typeof call.body === 'string' || call.body === undefined ? (call.body ?? '') : utf8.decode(call.body)),
};

/** node:http2 without the compat layer: each stream answered 201 with its body. */
function rawEchoStream(stream: ServerHttp2Stream): void {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => {
    stream.respond({ ':status': 201, 'content-type': 'application/json' });
    stream.end(Buffer.concat(chunks));
  });
  stream.on('error', () => {});
}

/** Runs the three ceilings for `spec` (a create load); `tick` reports each run. */
export async function measureCeilings(
  thread: ClientThread,
  spec: LoadSpec,
  runs: number,
  tick: (what: string) => void,
): Promise<Ceiling[]> {
  const { ca, serving } = await loopbackTls();
  const bridged = await serveHttp2(echo, serving, '127.0.0.1', 0);
  const raw = createSecureServer({ cert: serving.certPem, key: serving.keyPem });
  raw.on('stream', rawEchoStream);
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  const rawPort = (raw.address() as AddressInfo).port;
  const target = (port: number) => ({ port, ca: ca.certPem, token: 'unused' });
  const out: Ceiling[] = [];
  try {
    for (const impl of ['json-only', 'trivial-h2', 'raw-node-http2'] as const) {
      for (let run = 0; run < runs; run++) {
        tick(`ceiling · ${impl} · run ${run + 1}/${runs}`);
        const tagged = { ...spec, tag: `${spec.tag}-${impl}-${run}` };
        const result =
          impl === 'json-only'
            ? await runLoad(jsonOnly, tagged)
            : ((await thread.call({
                kind: 'load',
                protocol: 'h2',
                target: target(impl === 'trivial-h2' ? bridged.port : rawPort),
                spec: tagged,
              })) as LoadResult);
        out.push({ impl, result });
      }
    }
  } finally {
    await bridged.close();
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  }
  return out;
}

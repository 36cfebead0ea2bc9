import { describe, expect, it } from 'vitest';
import type { DirectCall } from './incoming.js';
import { TOKEN, testServer } from './testing/test-server.js';

const AUTH = { Authorization: `Bearer ${TOKEN}` };
const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };
const ns = '/api/v1/namespaces/default';
const pod = (image: string, extra = '') =>
  `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"${image}"${extra}}]}}`;

/** Requests whose answers handleCall must give exactly as handle(new Request(…)) does. */
const CALLS: Omit<DirectCall, 'url'>[] & { path: string }[] = [
  {
    method: 'POST',
    path: `${ns}/configmaps`,
    headers: JSON_BODY,
    body: '\uFEFF{"metadata":{"name":"bom"},"data":{"a":"x\uD800y"}}',
  },
  {
    method: 'post',
    path: `${ns}/configmaps`,
    headers: JSON_BODY,
    body: '{"metadata":{"name":"e"},"data":{"a":"\uD83D\uDE00 \\u00e9"}}',
  },
  { method: 'POST', path: `${ns}/configmaps`, headers: AUTH, body: '{"metadata":{"name":"plain"}}' },
  { method: 'POST', path: `${ns}/configmaps`, headers: JSON_BODY, body: '{"metadata":{"name":"cut"' },
  { method: 'POST', path: `${ns}/configmaps`, headers: JSON_BODY },
  {
    method: 'POST',
    path: `${ns}/configmaps`,
    headers: JSON_BODY,
    body: '{"metadata":{"name":"w","x":1},"data":{"k":"v","k":"w"}}',
  },
  {
    method: 'POST',
    path: `${ns}/configmaps?fieldValidation=Strict`,
    headers: JSON_BODY,
    body: '{"metadata":{"name":"s","x":1}}',
  },
  {
    method: 'POST',
    path: `${ns}/configmaps`,
    headers: { ...AUTH, 'content-type': 'application/yaml' },
    body: 'metadata:\n  name: y\n',
  },
  {
    method: 'POST',
    path: `${ns}/configmaps`,
    headers: JSON_BODY,
    body: `{"metadata":{"name":"big"},"data":{"a":"${'é'.repeat(1_600_000)}"}}`,
  },
  { method: 'POST', path: `${ns}/pods`, headers: JSON_BODY, body: pod('i', ',"ports":[{"containerPort":1.0}]') },
  { method: 'POST', path: `${ns}/pods`, headers: JSON_BODY, body: pod('i') },
  { method: 'PUT', path: `${ns}/pods/p`, headers: JSON_BODY, body: pod('j') },
  { method: 'PUT', path: `${ns}/pods/p`, headers: JSON_BODY, body: pod('j', ',"command":["x"]') },
  {
    method: 'PATCH',
    path: `${ns}/pods/p/status`,
    headers: { ...AUTH, 'Content-Type': 'application/merge-patch+json' },
    body: '{"status":{"phase":"Running"}}',
  },
  {
    method: 'POST',
    path: `${ns}/pods/p/binding`,
    headers: JSON_BODY,
    body: '{"metadata":{"name":"p","resourceVersion":"1"},"target":{"name":"n"}}',
  },
  {
    method: 'POST',
    path: `${ns}/pods/p/binding`,
    headers: JSON_BODY,
    body: '{"metadata":{"name":"p"},"target":{"name":"n"}}',
  },
  { method: 'GET', path: `${ns}/pods/p`, headers: { ...AUTH, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } },
  { method: 'GET', path: `${ns}/pods/p`, headers: AUTH, body: 'x' },
  { method: 'GET', path: `${ns}/configmaps`, headers: {} },
  // Bytes (the Node fronts' bodies): no default Content-Type, decoded as Request.text() decodes.
  {
    method: 'POST',
    path: `${ns}/configmaps`,
    headers: AUTH,
    body: new Uint8Array([
      0xef,
      0xbb,
      0xbf,
      ...new TextEncoder().encode('{"metadata":{"name":"b"},"data":{"a":"'),
      0xff,
      0x22,
      0x7d,
      0x7d,
    ]),
  },
  { method: 'POST', path: `${ns}/configmaps`, headers: JSON_BODY, body: new Uint8Array(0) },
  // Header values trimmed of HTTP whitespace only; names differing in case joined.
  {
    method: 'GET',
    path: `${ns}/pods`,
    headers: { ...AUTH, 'Impersonate-User': '\u00a0u\t ', 'impersonate-user': 'v' },
  },
];

async function answer(send: () => Promise<Response>): Promise<unknown> {
  try {
    const res = await send();
    const text = (await res.text()).replace(/"uid":"[^"]+"/g, '"uid":"?"');
    const headers: [string, string][] = [];
    res.headers.forEach((value, name) => {
      headers.push([name, value]);
    });
    return { status: res.status, headers, text };
  } catch (err) {
    return { thrown: String(err) };
  }
}

describe('handleCall', () => {
  it('answers as handle() answers the same request made a web Request', async () => {
    const viaRequest = await testServer();
    const viaCall = await testServer();
    for (const { path, ...call } of CALLS) {
      const url = `https://kubewasm.test${path}`;
      const init = {
        method: call.method,
        headers: call.headers,
        ...(call.body === undefined ? {} : { body: call.body }),
      };
      const want = await answer(() => viaRequest.api.handle(new Request(url, init)));
      const got = await answer(() => viaCall.api.handleCall?.({ ...call, url }) ?? Promise.reject(new Error('none')));
      expect(got, `${call.method} ${path}`).toEqual(want);
    }
  });
});

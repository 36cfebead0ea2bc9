import { describe, expect, it } from 'vitest';
import { bufferedBody, jsonResponse } from './response.js';

describe('jsonResponse', () => {
  it('is a Response with the status, type, warnings and body', async () => {
    const res = jsonResponse(201, { a: 'é' }, { warnings: ['one', 'two'] });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(res.headers.get('Warning')).toBe('299 - "one", 299 - "two"');
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ a: 'é' });
    expect(res.bodyUsed).toBe(true);
  });

  it('reads once, like any Response', async () => {
    const res = jsonResponse(200, { a: 1 });
    expect(await res.text()).toBe('{"a":1}');
    await expect(res.text()).rejects.toThrow(TypeError);
    expect(() => res.clone()).toThrow(TypeError);
  });

  it('gives UTF-8 bytes to arrayBuffer and to the body stream', async () => {
    expect(new Uint8Array(await jsonResponse(200, 'é').arrayBuffer())).toEqual(new TextEncoder().encode('"é"'));
    const res = jsonResponse(200, { b: [1, 2] });
    const stream = res.body;
    expect(stream).not.toBeNull();
    expect(res.body).toBe(stream);
    expect(await new Response(stream).text()).toBe('{"b":[1,2]}');
    expect(res.bodyUsed).toBe(true);
  });

  it('clones an unread body', async () => {
    const res = jsonResponse(200, { c: true });
    const copy = res.clone();
    expect(await copy.json()).toEqual({ c: true });
    expect(await res.json()).toEqual({ c: true });
  });

  it('hands adapters the text only while nobody has read it', async () => {
    const res = jsonResponse(200, { d: 1 });
    expect(bufferedBody(res)).toBe('{"d":1}');
    await res.text();
    expect(bufferedBody(res)).toBeUndefined();
    expect(bufferedBody(new Response('x'))).toBeUndefined();
  });
});

describe('jsonResponse of a long list', () => {
  it('streams exactly the bytes JSON.stringify gives, in chunks', async () => {
    const body = {
      kind: 'PodList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '7', continue: 'abc' },
      items: Array.from({ length: 2500 }, (_, i) => (i === 3 ? undefined : { metadata: { name: `p-${i}` }, n: i })),
      after: ['x'],
    };
    const res = jsonResponse(200, body);
    expect(bufferedBody(res)).toBeUndefined();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      chunks++;
      text += decoder.decode(r.value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toBe(JSON.stringify(body));
  });
});

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta.js';
import { jsonResponse } from '../endpoints/response.js';
import { encodeStored, parseJsonObject, storedAnswer } from './codec.js';
import { MAX_NESTING_DEPTH, scanJson } from './go-json.js';

const deep = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`;
const message = (text: string): string => {
  try {
    parseJsonObject(text);
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('parseJsonObject (native parse first, Go scan for what it refuses)', () => {
  it('reports Go syntax errors', () => {
    expect(message('{"a":')).toBe("couldn't get version/kind; json parse error: unexpected end of JSON input");
    expect(message('{"a":1,}')).toBe(
      `couldn't get version/kind; json parse error: ${scanJson('{"a":1,}').error ?? 'no error?'}`,
    );
  });

  it("stops at Go's nesting limit, also behind a duplicate key JSON.parse drops", () => {
    expect(message(`{"a":${deep(MAX_NESTING_DEPTH - 2)}}`)).toBe('ok');
    expect(message(`{"a":${deep(MAX_NESTING_DEPTH)}}`)).toMatch(/exceeded max depth$/);
    expect(message(`{"a":${deep(MAX_NESTING_DEPTH)},"a":1}`)).toMatch(/exceeded max depth$/);
  });

  it('does not count brackets inside strings', () => {
    expect(message(`{"a":"${'['.repeat(MAX_NESTING_DEPTH + 1)}\\"["}`)).toBe('ok');
  });
});

describe('storedAnswer (answered with the stored text, not stringified again)', () => {
  const objects: Record<string, unknown>[] = [
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: {} }, spec: { containers: [] } },
    { kind: 'ConfigMap', metadata: {}, data: { a: 'b' }, gone: undefined, apiVersion: 'v1' },
    { data: { metadata: '}' }, metadata: { name: 'x', resourceVersion: '9', annotations: { a: '"{' } } },
    { spec: { f: () => 1, d: new Date(0) }, metadata: { uid: 'u' } },
  ];
  it.each(objects)('gives JSON.stringify of the answer', async (obj) => {
    const written = encodeStored(obj as KubeObject);
    const answer = storedAnswer(written, { value: written.bytes, revision: 42n });
    expect(await jsonResponse(201, answer).text()).toBe(JSON.stringify(answer));
    expect(answer.metadata?.resourceVersion).toBe('42');
  });
});

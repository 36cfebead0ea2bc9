import { describe, expect, it } from 'vitest';
import type { StatusError } from '../api/status.js';
import { VirtualClock } from '../sim/clock.js';
import {
  classifyRequest,
  InFlightLimiter,
  parseGoDuration,
  readBodyLimited,
  requestDeadlineMs,
  withDeadline,
} from './protection.js';

describe('parseGoDuration (time.ParseDuration)', () => {
  it.each([
    ['0', 0],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['1h30m', 5_400_000],
    ['250ms', 250],
    ['-1s', -1000],
    ['.5s', 500],
    ['100us', 0.1],
  ])('%s → %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['soon', 'time: invalid duration "soon"'],
    ['.s', 'time: invalid duration ".s"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
    ['1s5', 'time: missing unit in duration "1s5"'],
  ])('%j fails with Go text', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(message);
  });
});

describe('requestDeadlineMs (request_deadline.go)', () => {
  const q = (s: string) => new URLSearchParams(s);
  it('shortens the default, never lengthens it; 0 means the default', () => {
    expect(requestDeadlineMs(q(''), 60_000)).toBe(60_000);
    expect(requestDeadlineMs(q('timeout=5s'), 60_000)).toBe(5_000);
    expect(requestDeadlineMs(q('timeout=2h'), 60_000)).toBe(60_000);
    expect(requestDeadlineMs(q('timeout=0s'), 60_000)).toBe(60_000);
  });
  it('answers 400 for a malformed value', () => {
    try {
      requestDeadlineMs(q('timeout=x'), 60_000);
      expect.unreachable();
    } catch (err) {
      expect((err as StatusError).status).toMatchObject({
        code: 400,
        message: 'invalid timeout specified in the request URL - time: invalid duration "x"',
      });
    }
  });
});

describe('classifyRequest', () => {
  const c = (method: string, path: string) => classifyRequest(method, new URL(`https://x${path}`));
  it('gives RequestInfo verbs, mutating and long-running as kube-apiserver does', () => {
    expect(c('GET', '/api/v1/namespaces/a/pods')).toEqual({ verb: 'list', mutating: false, longRunning: false });
    expect(c('GET', '/api/v1/namespaces/a/pods/p')).toEqual({ verb: 'get', mutating: false, longRunning: false });
    expect(c('GET', '/api/v1/namespaces/a/pods?watch=true')).toEqual({
      verb: 'watch',
      mutating: false,
      longRunning: true,
    });
    expect(c('GET', '/api/v1/namespaces/a/pods/p/log')).toMatchObject({ longRunning: true });
    expect(c('POST', '/api/v1/namespaces/a/pods/p/exec')).toMatchObject({ mutating: true, longRunning: true });
    expect(c('POST', '/api/v1/namespaces/a/pods')).toEqual({ verb: 'create', mutating: true, longRunning: false });
    expect(c('DELETE', '/api/v1/namespaces/a/pods')).toMatchObject({ verb: 'deletecollection', mutating: true });
    expect(c('PATCH', '/apis/apps/v1/namespaces/a/deployments/d')).toMatchObject({ verb: 'patch', mutating: true });
    expect(c('GET', '/version')).toEqual({ verb: 'get', mutating: false, longRunning: false });
  });
});

describe('InFlightLimiter', () => {
  it('keeps separate budgets, 0 meaning no limit, and releases once', () => {
    const l = new InFlightLimiter(1, 0);
    const r = l.tryAcquire(false);
    expect(r).toBeDefined();
    expect(l.tryAcquire(false)).toBeUndefined();
    for (let i = 0; i < 5; i++) expect(l.tryAcquire(true)).toBeDefined();
    r?.();
    r?.();
    expect(l.inFlight.readOnly).toBe(0);
    expect(l.tryAcquire(false)).toBeDefined();
  });
});

describe('withDeadline', () => {
  it('answers the timeout response when the clock passes the deadline first', async () => {
    const clock = new VirtualClock(0);
    let finish: (r: Response) => void = () => {};
    const work = new Promise<Response>((resolve) => {
      finish = resolve;
    });
    const result = withDeadline(work, 1000, clock, (err) => new Response(err.message, { status: 504 }));
    clock.advance(1000);
    const res = await result;
    expect(res.status).toBe(504);
    expect(await res.text()).toBe('Timeout: request did not complete within the allotted timeout');
    finish(new Response('late'));
  });

  it('answers the work and cancels the timer when it is first', async () => {
    const clock = new VirtualClock(0);
    const res = await withDeadline(
      Promise.resolve(new Response('ok')),
      1000,
      clock,
      () => new Response('', { status: 504 }),
    );
    expect(await res.text()).toBe('ok');
    clock.advance(5000);
  });
});

describe('readBodyLimited (handlers/rest.go limitedReadBody)', () => {
  it('reads up to the limit and answers 413 one byte beyond it', async () => {
    const req = (n: number) => new Request('https://x/', { method: 'POST', body: 'x'.repeat(n) });
    expect((await readBodyLimited(req(10), 10)).length).toBe(10);
    await expect(readBodyLimited(req(11), 10)).rejects.toMatchObject({
      status: { code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 10' },
    });
    expect((await readBodyLimited(new Request('https://x/'), 10)).length).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import type { StatusError } from '../../api/status.js';
import { requestDeadlineMs } from './request-deadline.js';

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

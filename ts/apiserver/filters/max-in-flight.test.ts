import { describe, expect, it } from 'vitest';
import { InFlightLimiter } from './max-in-flight.js';

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

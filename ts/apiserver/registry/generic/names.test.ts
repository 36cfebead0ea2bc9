import { describe, expect, it } from 'vitest';
import { rfc3339 } from './names.js';

describe('rfc3339', () => {
  it('writes whole seconds, whatever order the times come in', () => {
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 5, 999))).toBe('2025-01-02T03:04:05Z');
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 5, 0))).toBe('2025-01-02T03:04:05Z');
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 6, 1))).toBe('2025-01-02T03:04:06Z');
    expect(rfc3339(Date.UTC(1999, 11, 31, 23, 59, 59, 500))).toBe('1999-12-31T23:59:59Z');
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 5, 1))).toBe('2025-01-02T03:04:05Z');
  });
});

import { describe, expect, it } from 'vitest';
import { goTimeParseError, goTimeString, RFC3339, RFC3339_MICRO, rfc3339, rfc3339Micro } from './time.js';

describe('rfc3339', () => {
  it('writes whole seconds, whatever order the times come in', () => {
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 5, 999))).toBe('2025-01-02T03:04:05Z');
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 5, 0))).toBe('2025-01-02T03:04:05Z');
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 6, 1))).toBe('2025-01-02T03:04:06Z');
    expect(rfc3339(Date.UTC(1999, 11, 31, 23, 59, 59, 500))).toBe('1999-12-31T23:59:59Z');
    expect(rfc3339(Date.UTC(2025, 0, 2, 3, 4, 5, 1))).toBe('2025-01-02T03:04:05Z');
  });

  it('drops the fraction before 1970 too, as time.Format does', () => {
    expect(rfc3339(-500)).toBe('1969-12-31T23:59:59Z');
    expect(rfc3339(0)).toBe('1970-01-01T00:00:00Z');
  });
});

describe('rfc3339Micro', () => {
  // metav1.MicroTime.MarshalJSON: RFC3339Micro, always six fraction digits.
  it('writes six fraction digits', () => {
    expect(rfc3339Micro(Date.UTC(2025, 0, 2, 3, 4, 5, 123))).toBe('2025-01-02T03:04:05.123000Z');
    expect(rfc3339Micro(Date.UTC(2025, 0, 2, 3, 4, 5, 0))).toBe('2025-01-02T03:04:05.000000Z');
    expect(rfc3339Micro(Date.UTC(2025, 0, 2, 3, 4, 5, 7.9))).toBe('2025-01-02T03:04:05.007000Z');
  });

  it('parses back with its layout', () => {
    expect(goTimeParseError(rfc3339Micro(Date.UTC(2025, 0, 2)), RFC3339_MICRO)).toBeUndefined();
    expect(goTimeParseError(rfc3339(Date.UTC(2025, 0, 2)), RFC3339)).toBeUndefined();
  });
});

describe('goTimeParseError (time.Parse with RFC 3339 layouts)', () => {
  const layout = '2006-01-02T15:04:05Z07:00';
  const micro = '2006-01-02T15:04:05.000000Z07:00';
  it.each([
    ['2024-02-29T10:00:00Z', layout, undefined],
    ['2024-02-29T10:00:00.123+02:00', layout, undefined],
    ['2024-01-01T00:00:00.000001Z', micro, undefined],
    [
      'yesterday',
      layout,
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    ],
    [
      '2024-1-01T00:00:00Z',
      layout,
      'parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"',
    ],
    ['2024-13-01T00:00:00Z', layout, 'parsing time "2024-13-01T00:00:00Z": month out of range'],
    ['2023-02-29T00:00:00Z', layout, 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    [
      '2024-01-01 00:00:00Z',
      layout,
      'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"',
    ],
    [
      '2024-01-01T00:00:00',
      layout,
      'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    ],
    ['2024-01-01T00:00:00Zjunk', layout, 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    [
      '2024-01-01T00:00:00Z',
      micro,
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    ],
  ] as const)('%s as %s', (value, l, err) => {
    expect(goTimeParseError(value, l)).toBe(err);
  });
});

describe('goTimeString', () => {
  it('prints metav1.Time as Go does', () => {
    expect(goTimeString('2024-05-02T13:04:05Z')).toBe('2024-05-02 13:04:05 +0000 UTC');
    expect(goTimeString('2024-05-02T15:04:05+02:00')).toBe('2024-05-02 13:04:05 +0000 UTC');
    expect(goTimeString('2024-05-02T13:04:05.120Z')).toBe('2024-05-02 13:04:05.12 +0000 UTC');
    expect(goTimeString(undefined)).toBe('0001-01-01 00:00:00 +0000 UTC');
  });
});

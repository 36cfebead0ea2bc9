import { describe, expect, it } from 'vitest';
import { effectiveFormat, formatValidates, knownFormat } from './formats.js';

describe('effectiveFormat (StripUnsupportedFormatsPostProcess)', () => {
  it('keeps the supported formats, normalizing dashes only for the lookup', () => {
    expect(effectiveFormat('date-time')).toBe('date-time');
    expect(effectiveFormat('uuid')).toBe('uuid');
    expect(effectiveFormat('byte')).toBe('byte');
  });
  it('strips the numeric and unknown formats', () => {
    for (const f of ['int32', 'int64', 'float', 'double', 'k8s-short-name', 'url']) expect(effectiveFormat(f)).toBe('');
  });
});

describe('formatValidates', () => {
  const cases: [string, string, boolean][] = [
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['date', '2024-1-1', false],
    ['date-time', '2024-02-03T04:05:06Z', true],
    ['date-time', '2024-02-03T04:05:06.123+02:00', true],
    ['date-time', '2024-02-03 04:05:06', true],
    ['date-time', '2024-02-03', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123E4567E89B12D3A456426614174000', true],
    ['uuid', 'nope', false],
    ['uuid4', '123e4567-e89b-42d3-a456-426614174000', true],
    ['uuid4', '123e4567-e89b-12d3-a456-426614174000', false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '10.0.0.256', false],
    ['ipv6', '::1', true],
    ['ipv6', 'fe80::1:2:3:4', true],
    ['ipv6', '10.0.0.1', false],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['mac', '01:23:45:67:89:ab', true],
    ['mac', '01:23:45', false],
    ['hostname', 'example.com', true],
    ['hostname', 'a b', false],
    ['email', 'a@b.c', true],
    ['email', 'nope', false],
    ['uri', 'https://example.com/x', true],
    ['uri', 'no scheme', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'aGVsbG8', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['hexcolor', '#fff', true],
    ['hexcolor', '#ffff', false],
    ['rgbcolor', 'rgb(1, 2, 255)', true],
    ['rgbcolor', 'rgb(1, 2, 256)', false],
    ['ssn', '123-45-6789', true],
    ['isbn10', '0321751043', true],
    ['isbn13', '978-0321751041', true],
    ['isbn', '0321751044', false],
    ['creditcard', '4111 1111 1111 1111', true],
    ['creditcard', '4111 1111 1111 1112', false],
    ['password', 'anything', true],
  ];
  for (const [format, value, ok] of cases) {
    it(`${format} ${JSON.stringify(value)} → ${ok}`, () => {
      expect(knownFormat(format)).toBe(true);
      expect(formatValidates(format, value)).toBe(ok);
    });
  }
});

import { describe, expect, it } from 'vitest';
import { base64ErrorOffset, goTimeParseError, parseJsonNode } from './go-decoder.js';

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

describe('base64ErrorOffset (encoding/base64 decodeQuantum)', () => {
  it.each([
    ['', -1],
    ['aGk=', -1],
    ['aGVsbG8=', -1],
    ['aGk', 0],
    ['aGVsbG', 4],
    ['a===', 1],
    ['ab=c', 2],
    ['ab=', 3],
    ['aGk=x', 4],
    ['aG\nk=', -1],
  ])('%j → %d', (input, offset) => {
    expect(base64ErrorOffset(input)).toBe(offset);
  });
});

describe('parseJsonNode', () => {
  it('keeps duplicate keys, escapes and number text', () => {
    expect(parseJsonNode(' {"a":1.0,"a":[true,null,"\\u0041"]} ')).toEqual({
      t: 'object',
      entries: [
        ['a', { t: 'number', raw: '1.0' }],
        [
          'a',
          {
            t: 'array',
            items: [{ t: 'bool', raw: 'true' }, { t: 'null' }, { t: 'string', value: 'A', raw: '"\\u0041"' }],
          },
        ],
      ],
    });
  });
});

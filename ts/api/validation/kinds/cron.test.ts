import { describe, expect, it } from 'vitest';
import { parseStandardCron } from './cron.js';

// robfig/cron/v3 v3.0.1 ParseStandard's answers (the CronJob cases in cases.json check them
// through Kubernetes too).
describe('parseStandardCron', () => {
  it.each([
    '* * * * *',
    '*/15 0-6 1,15 JAN-mar sun',
    '@hourly',
    '@every 90s',
    'TZ=UTC 0 * * *  *',
    '0 0 L * *'.replace('L', '1'),
  ])('accepts %j', (spec) => {
    expect(parseStandardCron(spec)).toBeUndefined();
  });
  it.each([
    ['', 'empty spec string'],
    ['* * *', 'expected exactly 5 fields, found 3: [* * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['@yearlyish', 'unrecognized descriptor: @yearlyish'],
    ['@every 1x', 'failed to parse duration @every 1x: time: unknown unit "x" in duration "1x"'],
    ['@every 10', 'failed to parse duration @every 10: time: missing unit in duration "10"'],
    ['@every x', 'failed to parse duration @every x: time: invalid duration "x"'],
  ])('rejects %j', (spec, message) => {
    expect(parseStandardCron(spec)).toBe(message);
  });
});

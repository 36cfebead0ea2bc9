/**
 * Go's time.ParseDuration (src/time/format.go), in milliseconds: what kube-apiserver's `?timeout=`
 * (request_deadline.go) and duration flags such as --resource-quota-sync-period accept.
 *
 *   parseGoDuration('1h30m') → 5_400_000;  parseGoDuration('5') throws `time: missing unit in duration "5"`
 */

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration, in milliseconds; throws Error with Go's text (`time: invalid duration "x"`). */
export function parseGoDuration(orig: string): number {
  const invalid = (): Error => new Error(`time: invalid duration ${JSON.stringify(orig)}`);
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let total = 0;
  while (s !== '') {
    const num = /^(\d*)(\.\d*)?/.exec(s);
    const intPart = num?.[1] ?? '';
    const fracPart = num?.[2] ?? '';
    if (intPart === '' && fracPart.length <= 1) throw invalid();
    s = s.slice(intPart.length + fracPart.length);
    const unit = /^[^\d.]*/.exec(s)?.[0] ?? '';
    if (unit === '') throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const scale = Object.hasOwn(DURATION_UNITS, unit) ? DURATION_UNITS[unit] : undefined;
    if (scale === undefined) {
      throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(orig)}`);
    }
    s = s.slice(unit.length);
    total += Number(`${intPart === '' ? '0' : intPart}${fracPart === '.' ? '' : fracPart}`) * scale;
  }
  return neg ? -total : total;
}

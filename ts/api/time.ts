/**
 * metav1.Time and metav1.MicroTime on the wire (k8s.io/apimachinery/pkg/apis/meta/v1 time.go,
 * micro_time.go, v0.32): RFC 3339 in UTC, at whole seconds (Time) or microseconds (MicroTime); the
 * errors of Go's time.Parse with their layouts (time/format.go), which decoding reports; and
 * time.Time's String(), which messages print. Every component formats times here.
 *
 *   rfc3339(clock.now())       // '2024-05-01T12:00:00Z'
 *   rfc3339Micro(clock.now())  // '2024-05-01T12:00:00.123000Z'
 */

/** time.RFC3339, the layout metav1.Time marshals and parses with. */
export const RFC3339 = '2006-01-02T15:04:05Z07:00';
/** metav1.RFC3339Micro (micro_time.go), MicroTime's layout. */
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';
export type TimeLayout = typeof RFC3339 | typeof RFC3339_MICRO;

// The text of the last second formatted: writes come in bursts within one second.
let lastSecond = Number.NaN;
let lastText = '';

/** metav1.Time.MarshalJSON of a time in epoch milliseconds: UTC, whole seconds (`2024-05-01T12:00:00Z`). */
export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
    lastSecond = second;
  }
  return lastText;
}

/** metav1.MicroTime.MarshalJSON of a time in epoch milliseconds: UTC, six fraction digits (`2024-05-01T12:00:00.123000Z`). */
export function rfc3339Micro(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // 2024-05-01T12:00:00.123Z
  return `${iso.slice(0, 23)}000Z`;
}

/**
 * Go's time.Time String() of a metav1.Time as kube-apiserver and the controllers print it (UTC):
 * `2024-05-01 12:00:00 +0000 UTC`, a fraction without trailing zeros; the zero time when absent.
 */
export function goTimeString(t: string | null | undefined): string {
  if (t === undefined || t === null || t === '') return '0001-01-01 00:00:00 +0000 UTC';
  const ms = Date.parse(t);
  if (Number.isNaN(ms)) return t;
  const iso = new Date(ms).toISOString(); // 2024-05-01T12:00:00.000Z
  const fraction = /\.(\d+)/.exec(t)?.[1]?.replace(/0+$/, '') ?? '';
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction === '' ? '' : `.${fraction}`} +0000 UTC`;
}

/** The time package's quote: ASCII kept (with `"` and `\\` escaped), other bytes as `\xNN`. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x20 || c >= 0x80) {
      for (const b of new TextEncoder().encode(ch)) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

/**
 * The error of Go's time.Parse(layout, value) for the two layouts metav1 uses (time/format.go
 * parse: layout elements in order, range checks, extra text, then the day of the month), or
 * undefined when the value parses.
 */
export function goTimeParseError(value: string, layout: TimeLayout): string | undefined {
  const elements: [string, string][] = [
    ['', '2006'],
    ['-', '01'],
    ['-', '02'],
    ['T', '15'],
    [':', '04'],
    [':', '05'],
  ];
  if (layout === RFC3339_MICRO) elements.push(['', '.000000']);
  elements.push(['', 'Z07:00']);
  const cannot = (layoutElem: string, valueElem: string) =>
    `parsing time ${timeQuote(value)} as ${timeQuote(layout)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`;
  const isDigit = (s: string, i: number) => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;
  // getnum: one or two digits (exactly two when fixed).
  const getnum = (s: string, fixed: boolean): [number, string] | undefined => {
    if (!isDigit(s, 0)) return undefined;
    if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
    return [Number(s.slice(0, 2)), s.slice(2)];
  };
  let v = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (const [prefix, std] of elements) {
    if (!v.startsWith(prefix)) return cannot(prefix, v);
    v = v.slice(prefix.length);
    const hold = v;
    let ok = true;
    let range: string | undefined;
    const num = (fixed: boolean): number => {
      const r = getnum(v, fixed);
      if (r === undefined) {
        ok = false;
        return 0;
      }
      v = r[1];
      return r[0];
    };
    switch (std) {
      case '2006':
        if (v.length < 4 || !isDigit(v, 0) || !/^[0-9]{4}$/.test(v.slice(0, 4))) ok = false;
        else {
          year = Number(v.slice(0, 4));
          v = v.slice(4);
        }
        break;
      case '01':
        month = num(true);
        if (ok && (month <= 0 || month > 12)) range = 'month';
        break;
      case '02':
        day = num(true);
        break;
      case '15': {
        const hour = num(false);
        if (ok && hour >= 24) range = 'hour';
        break;
      }
      case '04':
        if (num(true) >= 60 && ok) range = 'minute';
        break;
      case '05': {
        const sec = num(true);
        if (!ok) break;
        if (sec >= 60) {
          range = 'second';
          break;
        }
        // A fractional second the layout does not have is taken anyway.
        if (layout === RFC3339 && v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigit(v, 1)) {
          let n = 2;
          while (isDigit(v, n)) n++;
          v = v.slice(n);
        }
        break;
      }
      case '.000000':
        if (v.length < 7 || (v[0] !== '.' && v[0] !== ',') || !/^[0-9]{6}$/.test(v.slice(1, 7))) ok = false;
        else v = v.slice(7);
        break;
      default: {
        // Z07:00
        if (v[0] === 'Z') {
          v = v.slice(1);
          break;
        }
        if (v.length < 6 || v[3] !== ':') {
          ok = false;
          break;
        }
        const hh = getnum(v.slice(1, 3), true);
        const mm = getnum(v.slice(4, 6), true);
        const sign = v[0];
        v = v.slice(6);
        // As Go: minutes are read only after good hours, the later range message wins.
        if (hh === undefined || mm === undefined) ok = false;
        if ((hh?.[0] ?? 0) > 24) range = 'time zone offset hour';
        if (hh !== undefined && (mm?.[0] ?? 0) > 60) range = 'time zone offset minute';
        if (sign !== '+' && sign !== '-') ok = false;
      }
    }
    if (range !== undefined) return `parsing time ${timeQuote(value)}: ${range} out of range`;
    if (!ok) return cannot(std, hold);
  }
  if (v.length !== 0) return `parsing time ${timeQuote(value)}: extra text: ${timeQuote(v)}`;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  if (day < 1 || day > days) return `parsing time ${timeQuote(value)}: day out of range`;
  return undefined;
}

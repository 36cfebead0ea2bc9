/**
 * String formats as custom resource validation knows them: the formats a CRD may use
 * (apiextensions-apiserver pkg/apiserver/validation/formats.go supportedFormats; every other format,
 * int32/int64/float/double included, is stripped before validation and so never checked) and the
 * checks of kube-openapi's default strfmt registry (pkg/validation/strfmt/default.go, date.go,
 * time.go, duration.go).
 */

/** formats.go supportedFormats, Kubernetes 1.32 (names without `-`, as normalized). */
const SUPPORTED_FORMATS = new Set([
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
]);

/** StripUnsupportedFormatsPostProcess: the format kept for validation, or '' when stripped. */
export function effectiveFormat(format: string | undefined): string {
  if (format === undefined || format === '') return '';
  return SUPPORTED_FORMATS.has(format.replaceAll('-', '')) ? format : '';
}

// strfmt/default.go patterns.
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const ISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/;
const ISBN13 = /^(?:[0-9]{13})$/;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_COLOR =
  /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;
const MAC =
  /^([0-9a-fA-F]{2}[:-]){5}([0-9a-fA-F]{2})$|^([0-9a-fA-F]{2}[:-]){7}([0-9a-fA-F]{2})$|^([0-9a-fA-F]{2}[:-]){19}([0-9a-fA-F]{2})$|^([0-9a-fA-F]{4}\.){2}([0-9a-fA-F]{4})$|^([0-9a-fA-F]{4}\.){3}([0-9a-fA-F]{4})$|^([0-9a-fA-F]{4}\.){9}([0-9a-fA-F]{4})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// strfmt/time.go DateTimeFormats: RFC 3339 with optional fraction and a zone (Z, ±hh:mm, ±hhmm),
// the local ISO 8601 forms, and "2006-01-02 15:04:05".
const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$|^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
// strfmt/duration.go durationMatcher and timeUnits.
const SCALA_DURATION = /(\d+)\s*([A-Za-zµ]+)/g;
const TIME_UNITS = new Set([
  'ns',
  'nano',
  'nanos',
  'us',
  'µs',
  'micro',
  'micros',
  'ms',
  'milli',
  'millis',
  's',
  'sec',
  'secs',
  'm',
  'min',
  'mins',
  'h',
  'hr',
  'hour',
  'hours',
  'd',
  'day',
  'days',
  'w',
  'wk',
  'week',
  'weeks',
]);

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (m === null) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= (days[mo - 1] ?? 0);
}

function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (m === null) return false;
  const date = m[1] ?? m[7] ?? '';
  const hh = Number(m[2] ?? m[8]);
  const mm = Number(m[3] ?? m[9]);
  const ss = Number(m[4] ?? m[10] ?? 0);
  return isDate(date) && hh < 24 && mm < 60 && ss < 60;
}

function isDuration(s: string): boolean {
  if (GO_DURATION.test(s) || s === '0') return true;
  let ok = false;
  for (const m of s.matchAll(SCALA_DURATION)) {
    if (TIME_UNITS.has((m[2] ?? '').toLowerCase())) ok = true;
  }
  return ok;
}

function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** net.ParseIP of an IPv6 text (or IPv4-mapped); IPv4 text too, as ParseIP accepts both. */
function parseIP(s: string): boolean {
  if (isIPv4(s)) return true;
  if (!s.includes(':')) return false;
  let rest = s;
  const lastColon = rest.lastIndexOf(':');
  if (rest.slice(lastColon + 1).includes('.')) {
    if (!isIPv4(rest.slice(lastColon + 1))) return false;
    rest = `${rest.slice(0, lastColon + 1)}0:0`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const all = halves.flatMap(groups);
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? all.length < 8 : all.length === 8;
}

function isCIDR(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const ip = s.slice(0, i);
  const bits = s.slice(i + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  return parseIP(ip) && Number(bits) <= 128;
}

/** url.ParseRequestURI: an absolute URI, or an absolute path. */
function isURI(s: string): boolean {
  if (s.length === 0 || /[\s\x7f]/.test(s)) return false;
  if (s.startsWith('/')) return true;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
}

function isBase64(s: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s);
}

function isISBN10(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!ISBN10.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(d[i]);
  sum += d[9] === 'X' ? 100 : 10 * Number(d[9]);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!ISBN13.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(d[12]);
}

function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]/g, '');
  if (!CREDIT_CARD.test(d)) return false;
  let sum = 0;
  let double = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = Number(d[i]);
    if (double) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The registry's checks by normalized name; a format missing here is not validated. */
const CHECKS: Record<string, (s: string) => boolean> = {
  uri: isURI,
  email: (s) => EMAIL.test(s),
  hostname: (s) => s.length <= 255 && HOSTNAME.test(s),
  ipv4: (s) => isIPv4(s),
  ipv6: (s) => parseIP(s) && s.includes(':'),
  cidr: isCIDR,
  mac: (s) => MAC.test(s),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: isCreditCard,
  ssn: (s) => SSN.test(s),
  hexcolor: (s) => HEX_COLOR.test(s),
  rgbcolor: (s) => RGB_COLOR.test(s),
  byte: isBase64,
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** KnownFormats.ContainsName. */
export function knownFormat(format: string): boolean {
  return Object.hasOwn(CHECKS, format.replaceAll('-', '').toLowerCase());
}

/** KnownFormats.Validates. */
export function formatValidates(format: string, value: string): boolean {
  const check = CHECKS[format.replaceAll('-', '').toLowerCase()];
  return check === undefined || check(value);
}

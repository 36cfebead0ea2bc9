/**
 * A one-pass check of a JSON request body the way kube-apiserver's decoders see it: syntax errors
 * with Go's encoding/json texts (scanner.go: `invalid character 'x' looking for beginning of
 * value`, `unexpected end of JSON input`), a nesting limit reported as Go reports its own
 * (`invalid character '{' exceeded max depth`), and the duplicate fields sigs.k8s.io/json's strict
 * decoder names (`duplicate field "metadata.name"`). JSON.parse does the actual decoding once the
 * text passed; it creates `__proto__` as an own data property, so nothing here can reach a prototype.
 */

/**
 * Nesting limit. encoding/json (scanner.go `maxNestingDepth`) allows 10000; V8's JSON.stringify
 * and structuredClone overflow the stack near 2000 nested objects, so this server stops at 1000
 * with the same error.
 */
export const MAX_NESTING_DEPTH = 1000;

export interface JsonScan {
  /** Go's syntax error text, when the text is not one JSON value. */
  error?: string;
  /** Paths of repeated object keys in document order (`spec.paused`, `spec.containers[0].name`). */
  duplicates: string[];
}

/** strconv.Quote of one character, in single quotes (encoding/json quoteChar). */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const escapes: Record<string, string> = {
    '\x07': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\v': '\\v',
    '\\': '\\\\',
  };
  const escaped = escapes[c];
  if (escaped !== undefined) return `'${escaped}'`;
  if (c < ' ' || c === '\x7f') return `'\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isHex = (c: string): boolean => isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');

type Frame =
  | { kind: 'object'; keys: Set<string>; path: string; key: string }
  | { kind: 'array'; path: string; index: number };

/** Scans `text` as one JSON value (Go's checkValid), collecting duplicate keys on the way. */
export function scanJson(text: string, maxDepth = MAX_NESTING_DEPTH): JsonScan {
  const duplicates: string[] = [];
  const stack: Frame[] = [];
  let i = 0;
  const n = text.length;
  const fail = (c: string, context: string): JsonScan => ({
    error: `invalid character ${quoteChar(c)} ${context}`,
    duplicates,
  });
  const eof = (): JsonScan => ({ error: 'unexpected end of JSON input', duplicates });
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return '';
    if (top.kind === 'array') return `${top.path}[${top.index}]`;
    return top.path === '' ? top.key : `${top.path}.${top.key}`;
  };
  const skipSpace = (): void => {
    while (i < n && isSpace(text[i] as string)) i++;
  };

  /** Scans a string starting at the opening quote; returns its raw contents or an error. */
  const scanString = (): string | JsonScan => {
    const start = ++i;
    while (i < n) {
      const c = text[i] as string;
      if (c === '"') {
        i++;
        return text.slice(start, i - 1);
      }
      if (c === '\\') {
        i++;
        if (i >= n) return eof();
        const e = text[i] as string;
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (i >= n) return eof();
            if (!isHex(text[i] as string)) return fail(text[i] as string, 'in \\u hexadecimal character escape');
          }
        } else if (!'"\\/bfnrt'.includes(e)) return fail(e, 'in string escape code');
        i++;
        continue;
      }
      if (c < ' ') return fail(c, 'in string literal');
      i++;
    }
    return eof();
  };

  const scanLiteral = (word: string): JsonScan | undefined => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (i >= n) return eof();
      if (text[i] !== word[k]) {
        return fail(text[i] as string, `in literal ${word} (expecting ${quoteChar(word[k] as string)})`);
      }
    }
    i++;
    return undefined;
  };

  const scanNumber = (): JsonScan | undefined => {
    if (text[i] === '-') {
      i++;
      if (i >= n) return eof();
      if (!isDigit(text[i] as string)) return fail(text[i] as string, 'in numeric literal');
    }
    if (text[i] === '0') i++;
    else while (i < n && isDigit(text[i] as string)) i++;
    if (i < n && text[i] === '.') {
      i++;
      if (i >= n) return eof();
      if (!isDigit(text[i] as string)) return fail(text[i] as string, 'after decimal point in numeric literal');
      while (i < n && isDigit(text[i] as string)) i++;
    }
    if (i < n && (text[i] === 'e' || text[i] === 'E')) {
      i++;
      if (i < n && (text[i] === '+' || text[i] === '-')) i++;
      if (i >= n) return eof();
      if (!isDigit(text[i] as string)) return fail(text[i] as string, 'in exponent of numeric literal');
      while (i < n && isDigit(text[i] as string)) i++;
    }
    return undefined;
  };

  // The state machine: expecting a value, then what may follow it in the enclosing container.
  let expectValue = true;
  skipSpace();
  if (i >= n) return eof();
  while (true) {
    if (expectValue) {
      skipSpace();
      if (i >= n) return eof();
      const c = text[i] as string;
      if (c === '{' || c === '[') {
        if (stack.length + 1 > maxDepth) return fail(c, 'exceeded max depth');
        const path = childPath();
        i++;
        skipSpace();
        if (i >= n) return eof();
        if (c === '{') {
          const frame: Frame = { kind: 'object', keys: new Set(), path, key: '' };
          stack.push(frame);
          if (text[i] === '}') {
            i++;
            stack.pop();
            expectValue = false;
            continue;
          }
          if (text[i] !== '"') return fail(text[i] as string, 'looking for beginning of object key string');
          const key = readKey(frame);
          if (typeof key !== 'string') return key;
          continue;
        }
        stack.push({ kind: 'array', path, index: 0 });
        if (text[i] === ']') {
          i++;
          stack.pop();
          expectValue = false;
        }
        continue;
      }
      let err: JsonScan | undefined;
      if (c === '"') {
        const s = scanString();
        if (typeof s !== 'string') return s;
      } else if (c === '-' || isDigit(c)) err = scanNumber();
      else if (c === 't') err = scanLiteral('true');
      else if (c === 'f') err = scanLiteral('false');
      else if (c === 'n') err = scanLiteral('null');
      else return fail(c, 'looking for beginning of value');
      if (err) return err;
      expectValue = false;
      continue;
    }
    // After a value.
    const top = stack[stack.length - 1];
    skipSpace();
    if (top === undefined) {
      if (i < n) return fail(text[i] as string, 'after top-level value');
      return { duplicates };
    }
    if (i >= n) return eof();
    const c = text[i] as string;
    if (top.kind === 'array') {
      if (c === ',') {
        i++;
        top.index++;
        expectValue = true;
      } else if (c === ']') {
        i++;
        stack.pop();
      } else return fail(c, 'after array element');
      continue;
    }
    if (c === ',') {
      i++;
      skipSpace();
      if (i >= n) return eof();
      if (text[i] !== '"') return fail(text[i] as string, 'looking for beginning of object key string');
      const key = readKey(top);
      if (typeof key !== 'string') return key;
    } else if (c === '}') {
      i++;
      stack.pop();
    } else return fail(c, 'after object key:value pair');
  }

  /** Reads `"key" :` in an object, records duplicates, and leaves the scanner expecting the value. */
  function readKey(frame: Frame & { kind: 'object' }): string | JsonScan {
    const raw = scanString();
    if (typeof raw !== 'string') return raw;
    const key = JSON.parse(`"${raw}"`) as string;
    skipSpace();
    if (i >= n) return eof();
    if (text[i] !== ':') return fail(text[i] as string, 'after object key');
    i++;
    frame.key = key;
    if (frame.keys.has(key)) duplicates.push(frame.path === '' ? key : `${frame.path}.${key}`);
    else frame.keys.add(key);
    expectValue = true;
    return key;
  }
}

/**
 * Whether `value` = JSON.parse(text) is faithful to the text for the decoder's fast path
 * (go-decoder.ts decodesCleanly): no duplicate key collapsed (as many object keys as the text) and
 * every number an exact plain integer (plainJsonFacts). Then the strings the text wrote with escapes
 * (whose literal is not `"` + value + `"`); else undefined. Call it while `value` is unchanged.
 */
export function faithfulParse(text: string, value: unknown): { escaped: ReadonlySet<string> } | undefined {
  const facts = plainJsonFacts(text);
  if (facts === undefined || countKeys(value) !== facts.keys) return undefined;
  return { escaped: facts.escaped };
}

/** The object keys of a parsed JSON value, at any depth. */
function countKeys(v: unknown): number {
  let keys = 0;
  if (Array.isArray(v)) {
    for (const item of v) keys += countKeys(item);
  } else if (typeof v === 'object' && v !== null) {
    for (const key of Object.keys(v)) keys += 1 + countKeys((v as Record<string, unknown>)[key]);
  }
  return keys;
}

/** What a JSON text holds that JSON.parse's value no longer shows (plainJsonFacts). */
export interface PlainJsonFacts {
  /** Object keys in the text: more than the parsed value has means a duplicate collapsed. */
  keys: number;
  /** The values of the string literals written with an escape (their text is not `"` + value + `"`). */
  escaped: ReadonlySet<string>;
}

// Up to 15 digits a double holds an integer exactly (2^53 ≈ 9.007e15).
const MAX_EXACT_DIGITS = 15;
const NONE: ReadonlySet<string> = new Set();

/**
 * One cheap scan of a text JSON.parse accepted, for faithfulParse: counts its object keys (one `:`
 * outside strings per key), collects the strings written with escapes, and checks that every
 * number literal is an integer its parsed value stands for exactly (at most 15 digits, no
 * fraction, no exponent, not `-0`). Undefined when one is not: only the literal text tells then.
 */
export function plainJsonFacts(text: string): PlainJsonFacts | undefined {
  // Where the next backslash is (text.length when none is left): a string before it has no escapes.
  let backslash = text.indexOf('\\');
  if (backslash < 0) backslash = text.length;
  const n = text.length;
  let escaped: Set<string> | undefined;
  let keys = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: the next `"` not escaped by an odd run of backslashes.
      let close = text.indexOf('"', i + 1);
      if (backslash < close) {
        while (close >= 0 && isEscaped(text, close)) close = text.indexOf('"', close + 1);
        if (close < 0) return undefined; // not valid JSON after all
        escaped ??= new Set();
        escaped.add(JSON.parse(text.slice(i, close + 1)) as string);
        backslash = text.indexOf('\\', close);
        if (backslash < 0) backslash = n;
      }
      if (close < 0) return undefined;
      i = close;
    } else if (c === 0x3a) {
      keys++;
    } else if (c === 0x2d) {
      if (text.charCodeAt(i + 1) === 0x30) return undefined; // -0, -0.5: not a plain integer
    } else if (c >= 0x30 && c <= 0x39) {
      // A number's digits (letters of true/false/null are never next to digits).
      const start = i;
      while (i + 1 < n && isDigitCode(text.charCodeAt(i + 1))) i++;
      if (i + 1 - start > MAX_EXACT_DIGITS) return undefined;
      const next = text.charCodeAt(i + 1);
      if (next === 0x2e || next === 0x65 || next === 0x45) return undefined; // . e E
    }
  }
  return { keys, escaped: escaped ?? NONE };
}

const isDigitCode = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Whether the quote at `at` is preceded by an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && text.charCodeAt(k) === 0x5c) k--;
  return (at - 1 - k) % 2 === 1;
}

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

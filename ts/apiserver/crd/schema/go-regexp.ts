/**
 * Schema `pattern`s are Go regular expressions (RE2, regexp.Compile). This compiles one to a JS
 * RegExp with RE2's meaning where the two differ in common patterns, and reports a pattern RE2
 * rejects with Go's `error parsing regexp: …` text.
 */

export type CompiledPattern = { ok: true; re: RegExp } | { ok: false; error: string };

const cache = new Map<string, CompiledPattern>();

/** regexp.Compile: `compileGoRegexp('^[a-z]+$')`. */
export function compileGoRegexp(pattern: string): CompiledPattern {
  let c = cache.get(pattern);
  if (c === undefined) {
    c = compile(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, c);
  }
  return c;
}

function fail(code: string, expr: string): CompiledPattern {
  return { ok: false, error: `error parsing regexp: ${code}: \`${expr}\`` };
}

function compile(pattern: string): CompiledPattern {
  // Perl syntax RE2 does not have.
  const perl = /\(\?(<?[=!])/.exec(pattern);
  if (perl !== null) return fail('invalid or unsupported Perl syntax', perl[0]);
  const backref = /\\[1-9]/.exec(pattern);
  if (backref !== null) return fail('invalid escape sequence', backref[0]);
  const syntax = syntaxError(pattern);
  if (syntax !== undefined) return syntax;

  // Leading flag groups `(?i)`, `(?s)`, `(?m)` become JS flags.
  let source = pattern;
  let flags = 'u';
  const lead = /^\(\?([imsU]+)\)/.exec(source);
  if (lead !== null) {
    for (const f of lead[1] ?? '') if (f !== 'U' && !flags.includes(f)) flags += f;
    source = source.slice(lead[0].length);
  }
  // RE2 spellings JS writes differently.
  source = source.replaceAll('(?P<', '(?<').replaceAll('\\z', '$(?![\\s\\S])').replaceAll('\\A', '^');
  try {
    return { ok: true, re: new RegExp(source, flags) };
  } catch {
    try {
      return { ok: true, re: new RegExp(source, flags.replace('u', '')) };
    } catch (e) {
      return { ok: false, error: `error parsing regexp: ${(e as Error).message}` };
    }
  }
}

/**
 * The parser errors RE2 reports for unbalanced brackets and parentheses and misplaced repetition
 * operators, scanning tokens as RE2 does (escapes and classes are operands).
 */
function syntaxError(p: string): CompiledPattern | undefined {
  let depth = 0;
  let operand = false; // something a repetition operator can apply to precedes
  let repeated = false; // the previous token was a repetition operator
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '\\') {
      i++;
      operand = true;
      repeated = false;
      continue;
    }
    if (ch === '[') {
      const end = classEnd(p, i);
      if (end < 0) return fail('missing closing ]', p.slice(i));
      i = end;
      operand = true;
      repeated = false;
      continue;
    }
    if (ch === '(') {
      depth++;
      if (p[i + 1] === '?') {
        // (?flags) or (?flags: or (?P<name>: skip the prefix.
        const close = p.slice(i).search(/[:)>]/);
        if (close > 0) {
          i += close;
          if (p[i] === ')') depth--;
        }
      }
      operand = false;
      repeated = false;
      continue;
    }
    if (ch === ')') {
      depth--;
      if (depth < 0) return fail('unexpected )', p);
      operand = true;
      repeated = false;
      continue;
    }
    if (ch === '|') {
      operand = false;
      repeated = false;
      continue;
    }
    if (ch === '*' || ch === '+' || ch === '?') {
      if (repeated) {
        // a lazy `?` after a repetition is fine; another repetition is not
        if (ch === '?' && p[i - 1] !== '?') {
          repeated = false;
          continue;
        }
        return fail('invalid nested repetition operator', `${p[i - 1]}${ch}`);
      }
      if (!operand) return fail('missing argument to repetition operator', ch);
      repeated = true;
      continue;
    }
    operand = ch !== '^';
    repeated = false;
  }
  if (depth > 0) return fail('missing closing )', p);
  return undefined;
}

/** The index of the `]` closing the class that opens at `start`, or -1. */
function classEnd(p: string, start: number): number {
  let i = start + 1;
  if (p[i] === '^') i++;
  if (p[i] === ']') i++; // a leading ] is a literal
  for (; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] === '[' && p[i + 1] === ':') {
      const close = p.indexOf(':]', i + 2);
      if (close >= 0) {
        i = close + 1;
        continue;
      }
    }
    if (p[i] === ']') return i;
  }
  return -1;
}

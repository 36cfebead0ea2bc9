/**
 * Field selectors: the syntax of k8s.io/apimachinery/pkg/fields/selector.go (v0.32): terms
 * `field=value`, `field==value`, `field!=value` joined by ',', values escaped with '\' (`\,`, `\=`,
 * `\\`), with its exact error messages and its canonical String() form.
 */
import { compareGo } from '../go-format.js';

/** A field selector could not be parsed; `message` is Kubernetes' text. */
export class FieldSelectorError extends Error {
  override readonly name = 'FieldSelectorError';
}

/** The selectable fields of one object: field label → value (see object-fields.ts). */
export type Fields = Readonly<Record<string, string>>;

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** TransformFunc: rewrites (field, value); returning both empty drops the term. */
export type TransformFunc = (field: string, value: string) => { field: string; value: string };

/** An AND of `field=value` / `field!=value` terms, in the parser's (sorted) order. */
export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  static everything(): FieldSelector {
    return new FieldSelector([]);
  }

  /** A missing field reads as '' (Fields.Get), so `x!=a` matches objects without x. */
  matches(fields: Fields): boolean {
    return this.requirements.every((r) => {
      const actual = Object.hasOwn(fields, r.field) ? fields[r.field] : '';
      return r.operator === '=' ? actual === r.value : actual !== r.value;
    });
  }

  empty(): boolean {
    return this.requirements.length === 0;
  }

  /** RequiresExactMatch: the value an `=` term demands of `field` (the first such term). */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /** Transform: applies fn to every term (e.g. field-label conversion), dropping emptied terms. */
  transform(fn: TransformFunc): FieldSelector {
    const next: FieldRequirement[] = [];
    for (const r of this.requirements) {
      const t = fn(r.field, r.value);
      if (t.field.length === 0 && t.value.length === 0) continue;
      next.push({ field: t.field, operator: r.operator, value: t.value });
    }
    return new FieldSelector(next);
  }

  /** `a=b,c!=d` with values escaped. */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeValue(r.value)}`).join(',');
  }
}

/** EscapeValue: `\` → `\\`, `,` → `\,`, `=` → `\=`. */
export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** UnescapeValue: the reverse; rejects unknown escapes and bare ',' or '='. */
export function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') {
      // Go prints the rune with %v: its code point number.
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** splitTerms: split on ',' not preceded by an escaping '\'. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** splitTerm: the first operator occurrence splits the term (no escaping on the left side). */
function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * fields.ParseSelector: `parseFieldSelector('metadata.name=web,status.phase!=Failed')`.
 * Terms are sorted; throws FieldSelectorError with Kubernetes' message.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort(compareGo);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (t === undefined) throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeValue(t.rhs);
    reqs.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value });
  }
  return new FieldSelector(reqs);
}

/** fields.SelectorFromSet / Set.AsSelector: `field=value` per entry. */
export function fieldSelectorFromSet(set: Fields): FieldSelector {
  return new FieldSelector(Object.entries(set).map(([field, value]) => ({ field, operator: '=', value })));
}

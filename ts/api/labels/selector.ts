/**
 * Label selectors: the string syntax of k8s.io/apimachinery/pkg/labels/selector.go (v0.32) with its
 * lexer, parser, error messages, matching and canonical String() form.
 *
 *   <selector>    ::= <requirement> | <requirement> "," <selector>
 *   <requirement> ::= [!] KEY [ ("in"|"notin") "(" VALUES ")" | ("="|"=="|"!="|">"|"<") VALUE ]
 */
import {
  type ErrorList,
  errorListMessage,
  type FieldError,
  FieldPath,
  invalid,
  notSupported,
  type OptionalPath,
} from '../field-errors.js';
import { compareGo, GoLiteral } from '../go-format.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';

/** selection.Operator values. */
export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';

const BINARY_OPERATORS: readonly string[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const VALID_REQUIREMENT_OPERATORS: readonly string[] = [...BINARY_OPERATORS, 'exists', '!'];

/** A selector could not be parsed or a requirement was invalid; `message` is Kubernetes' text. */
export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError';
  constructor(
    message: string,
    /** The field errors behind the message, when it came from NewRequirement. */
    readonly errors: readonly FieldError[] = [],
  ) {
    super(message);
  }
}

/** Labels to match: a plain map of key to value. */
export type Labels = Readonly<Record<string, string>>;

function has(ls: Labels, key: string): boolean {
  return Object.hasOwn(ls, key);
}

/** Go's strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, within int64. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return n;
}

/** One requirement: a key, an operator and its values. */
export class Requirement {
  private constructor(
    readonly key: string,
    readonly operator: Operator,
    /** The values as given (the parser gives them sorted and deduplicated). */
    readonly values: readonly string[],
  ) {}

  /** A requirement taken as valid (SelectorFromValidatedSet). */
  static unvalidated(key: string, op: Operator, values: readonly string[]): Requirement {
    return new Requirement(key, op, [...values]);
  }

  /**
   * NewRequirement: validates the key, the values' count for the operator, and each value.
   * `path` prefixes the fields in the errors (`key`, `values[0][key]`); `null` values stand for a
   * Go nil slice.
   */
  static create(key: string, op: string, vals: readonly string[] | null, path?: OptionalPath): Requirement {
    const values = vals ?? [];
    // A Go nil slice (null here) prints as []string(nil) in the errors, an empty one as []string{}.
    const shown = vals === null ? new GoLiteral('[]string(nil)') : [...values];
    const errs: ErrorList = [];
    const keyPath = path === undefined ? FieldPath.root('key') : path.child('key');
    const keyErr = validateLabelKey(key, keyPath);
    if (keyErr !== undefined) errs.push(keyErr);
    const valuePath = path === undefined ? FieldPath.root('values') : path.child('values');
    switch (op) {
      case 'in':
      case 'notin':
        if (values.length === 0) {
          errs.push(invalid(valuePath, shown, "for 'in', 'notin' operators, values set can't be empty"));
        }
        break;
      case '=':
      case '==':
      case '!=':
        if (values.length !== 1) {
          errs.push(invalid(valuePath, shown, 'exact-match compatibility requires one single value'));
        }
        break;
      case 'exists':
      case '!':
        if (values.length !== 0) {
          errs.push(invalid(valuePath, shown, 'values set must be empty for exists and does not exist'));
        }
        break;
      case 'gt':
      case 'lt':
        if (values.length !== 1) {
          errs.push(invalid(valuePath, shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
        }
        values.forEach((v, i) => {
          if (parseInt64(v) === undefined) {
            errs.push(invalid(valuePath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
          }
        });
        break;
      default: {
        const opPath = path === undefined ? FieldPath.root('operator') : path.child('operator');
        errs.push(notSupported(opPath, op, VALID_REQUIREMENT_OPERATORS));
      }
    }
    values.forEach((v, i) => {
      const e = validateLabelValue(key, v, valuePath.index(i));
      if (e !== undefined) errs.push(e);
    });
    const message = errorListMessage(errs);
    if (message !== undefined) throw new LabelSelectorError(message, errs);
    return new Requirement(key, op as Operator, [...values]);
  }

  /** Requirement.Matches. */
  matches(ls: Labels): boolean {
    switch (this.operator) {
      case 'in':
      case '=':
      case '==':
        return has(ls, this.key) && this.values.includes(ls[this.key] as string);
      case 'notin':
      case '!=':
        return !has(ls, this.key) || !this.values.includes(ls[this.key] as string);
      case 'exists':
        return has(ls, this.key);
      case '!':
        return !has(ls, this.key);
      case 'gt':
      case 'lt': {
        if (!has(ls, this.key)) return false;
        const actual = parseInt64(ls[this.key] as string);
        if (actual === undefined || this.values.length !== 1) return false;
        const bound = parseInt64(this.values[0] as string);
        if (bound === undefined) return false;
        return this.operator === 'gt' ? actual > bound : actual < bound;
      }
    }
  }

  /** Requirement.String: `x in (a,b)`, `!x`, `x!=a`, `x>1`; multiple values sorted. */
  toString(): string {
    let s = this.operator === '!' ? `!${this.key}` : this.key;
    switch (this.operator) {
      case '=':
      case '==':
      case '!=':
        s += this.operator;
        break;
      case 'in':
      case 'notin':
        s += ` ${this.operator} `;
        break;
      case 'gt':
        s += '>';
        break;
      case 'lt':
        s += '<';
        break;
      case 'exists':
      case '!':
        return s;
    }
    const values = this.values.length === 1 ? (this.values[0] as string) : [...this.values].sort(compareGo).join(',');
    return this.operator === 'in' || this.operator === 'notin' ? `${s}(${values})` : s + values;
  }
}

function validateLabelKey(key: string, path: OptionalPath): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length === 0 ? undefined : invalid(path, key, errs.join('; '));
}

function validateLabelValue(key: string, value: string, path: FieldPath): FieldError | undefined {
  const errs = isValidLabelValue(value);
  return errs.length === 0 ? undefined : invalid(path.key(key), value, errs.join('; '));
}

/** A label selector: the AND of its requirements (sorted by key), or Nothing. */
export class Selector {
  private constructor(
    /** undefined for the selector that matches nothing. */
    private readonly reqs: readonly Requirement[] | undefined,
  ) {}

  /** Everything(): matches all labels. */
  static everything(): Selector {
    return new Selector([]);
  }

  /** Nothing(): matches no labels (a nil metav1.LabelSelector). */
  static nothing(): Selector {
    return new Selector(undefined);
  }

  /** internalSelector.Add: a copy with more requirements, re-sorted by key. */
  add(...reqs: Requirement[]): Selector {
    if (this.reqs === undefined) return this;
    return new Selector(sortByKey([...this.reqs, ...reqs]));
  }

  matches(ls: Labels): boolean {
    if (this.reqs === undefined) return false;
    return this.reqs.every((r) => r.matches(ls));
  }

  /** True when it does not restrict anything (Everything). */
  empty(): boolean {
    return this.reqs !== undefined && this.reqs.length === 0;
  }

  /** The requirements, or undefined for Nothing (not selectable). */
  requirements(): readonly Requirement[] | undefined {
    return this.reqs;
  }

  /** RequiresExactMatch: the single value a `=`, `==` or one-value `in` requirement on `label` needs. */
  requiresExactMatch(label: string): string | undefined {
    for (const r of this.reqs ?? []) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
        return r.values[0];
      }
      return undefined;
    }
    return undefined;
  }

  /** Canonical form: requirements joined by ','; '' for Everything and Nothing. */
  toString(): string {
    return (this.reqs ?? []).map((r) => r.toString()).join(',');
  }
}

function sortByKey(reqs: Requirement[]): Requirement[] {
  return reqs.sort((a, b) => compareGo(a.key, b.key));
}

/** SelectorFromSet: `key=value` for each entry, sorted by key; no validation. */
export function selectorFromSet(set: Labels | undefined): Selector {
  const entries = Object.entries(set ?? {});
  return Selector.everything().add(...entries.map(([k, v]) => Requirement.unvalidated(k, '=', [v])));
}

/** ValidatedSelectorFromSet: as selectorFromSet, throwing LabelSelectorError on a bad key or value. */
export function validatedSelectorFromSet(set: Labels | undefined): Selector {
  const entries = Object.entries(set ?? {});
  return Selector.everything().add(...entries.map(([k, v]) => Requirement.create(k, '=', [v])));
}

// ---- lexer ----

const Token = {
  Error: 0,
  EndOfString: 1,
  ClosedPar: 2,
  Comma: 3,
  DoesNotExist: 4,
  DoubleEquals: 5,
  Equals: 6,
  GreaterThan: 7,
  Identifier: 8,
  In: 9,
  LessThan: 10,
  NotEquals: 11,
  NotIn: 12,
  OpenPar: 13,
} as const;
type Token = (typeof Token)[keyof typeof Token];

const STRING_TO_TOKEN: ReadonlyMap<string, Token> = new Map([
  [')', Token.ClosedPar],
  [',', Token.Comma],
  ['!', Token.DoesNotExist],
  ['==', Token.DoubleEquals],
  ['=', Token.Equals],
  ['>', Token.GreaterThan],
  ['in', Token.In],
  ['<', Token.LessThan],
  ['!=', Token.NotEquals],
  ['notin', Token.NotIn],
  ['(', Token.OpenPar],
]);

interface ScannedItem {
  tok: Token;
  literal: string;
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

/**
 * The lexer works on UTF-8 bytes in Go; every byte it treats specially is ASCII, so walking UTF-16
 * units gives the same tokens. '' stands for Go's 0 byte (end of input).
 */
class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}

  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++] as string;
    this.pos++;
    return '';
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdOrKeyword(): ScannedItem {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '' || ch === '\u0000') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    const tok = STRING_TO_TOKEN.get(buffer);
    return { tok: tok ?? Token.Identifier, literal: buffer };
  }

  private scanSpecialSymbol(): ScannedItem {
    let last: ScannedItem | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === '' || ch === '\u0000') break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
      const tok = STRING_TO_TOKEN.get(buffer);
      if (tok !== undefined) {
        last = { tok, literal: buffer };
      } else if (last !== undefined) {
        this.unread();
        break;
      }
    }
    return last ?? { tok: Token.Error, literal: `error expected: keyword found '${buffer}'` };
  }

  lex(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '' || ch === '\u0000') return { tok: Token.EndOfString, literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
}

// ---- parser ----

const Context = { KeyAndOperator: 0, Values: 1 } as const;
type Context = (typeof Context)[keyof typeof Context];

class Parser {
  private items: ScannedItem[] = [];
  private position = 0;

  constructor(
    private readonly lexer: Lexer,
    private readonly path: OptionalPath,
  ) {}

  private lookahead(ctx: Context): ScannedItem {
    return this.adjust(this.items[this.position] as ScannedItem, ctx);
  }

  private consume(ctx: Context): ScannedItem {
    this.position++;
    return this.adjust(this.items[this.position - 1] as ScannedItem, ctx);
  }

  /** In a value position, `in` and `notin` are plain identifiers. */
  private adjust(item: ScannedItem, ctx: Context): ScannedItem {
    if (ctx === Context.Values && (item.tok === Token.In || item.tok === Token.NotIn)) {
      return { tok: Token.Identifier, literal: item.literal };
    }
    return item;
  }

  private scan(): void {
    for (;;) {
      const item = this.lexer.lex();
      this.items.push(item);
      if (item.tok === Token.EndOfString) break;
    }
  }

  parse(): Requirement[] {
    this.scan();
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead(Context.Values);
      switch (tok) {
        case Token.Identifier:
        case Token.DoesNotExist: {
          let r: Requirement;
          try {
            r = this.parseRequirement();
          } catch (err) {
            const inner = err instanceof LabelSelectorError ? err : undefined;
            throw new LabelSelectorError(
              `unable to parse requirement: ${err instanceof Error ? err.message : String(err)}`,
              inner?.errors ?? [],
            );
          }
          reqs.push(r);
          const next = this.consume(Context.Values);
          if (next.tok === Token.EndOfString) return reqs;
          if (next.tok === Token.Comma) {
            const after = this.lookahead(Context.Values);
            if (after.tok !== Token.Identifier && after.tok !== Token.DoesNotExist) {
              throw new LabelSelectorError(`found '${after.literal}', expected: identifier after ','`);
            }
            break;
          }
          throw new LabelSelectorError(`found '${next.literal}', expected: ',' or 'end of string'`);
        }
        case Token.EndOfString:
          return reqs;
        default:
          throw new LabelSelectorError(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return Requirement.create(key, operator, [], this.path);
    const op = this.parseOperator();
    let values: string[];
    if (op === 'in' || op === 'notin') values = this.parseValues();
    else values = this.parseExactValue();
    return Requirement.create(key, op, values, this.path);
  }

  private parseKeyAndInferOperator(): { key: string; operator: Operator | undefined } {
    let operator: Operator | undefined;
    let item = this.consume(Context.Values);
    if (item.tok === Token.DoesNotExist) {
      operator = '!';
      item = this.consume(Context.Values);
    }
    if (item.tok !== Token.Identifier) throw new LabelSelectorError(`found '${item.literal}', expected: identifier`);
    const keyErr = validateLabelKey(item.literal, this.path);
    if (keyErr !== undefined) throw new LabelSelectorError(keyErr.message, [keyErr]);
    const next = this.lookahead(Context.Values).tok;
    if ((next === Token.EndOfString || next === Token.Comma) && operator !== '!') operator = 'exists';
    return { key: item.literal, operator };
  }

  private parseOperator(): Operator {
    const { tok, literal } = this.consume(Context.KeyAndOperator);
    switch (tok) {
      case Token.In:
        return 'in';
      case Token.Equals:
        return '=';
      case Token.DoubleEquals:
        return '==';
      case Token.GreaterThan:
        return 'gt';
      case Token.LessThan:
        return 'lt';
      case Token.NotIn:
        return 'notin';
      case Token.NotEquals:
        return '!=';
      default:
        throw new LabelSelectorError(`found '${literal}', expected: ${BINARY_OPERATORS.join(', ')}`);
    }
  }

  /** `(a,b)`; a set, so duplicates collapse and the result is sorted. */
  private parseValues(): string[] {
    const open = this.consume(Context.Values);
    if (open.tok !== Token.OpenPar) throw new LabelSelectorError(`found '${open.literal}' expected: '('`);
    const { tok, literal } = this.lookahead(Context.Values);
    switch (tok) {
      case Token.Identifier:
      case Token.Comma: {
        const s = this.parseIdentifiersList();
        if (this.consume(Context.Values).tok !== Token.ClosedPar) {
          throw new LabelSelectorError(`found '${literal}', expected: ')'`);
        }
        return s;
      }
      case Token.ClosedPar:
        this.consume(Context.Values);
        return [''];
      default:
        throw new LabelSelectorError(`found '${literal}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): string[] {
    const s = new Set<string>();
    const sorted = () => [...s].sort(compareGo);
    for (;;) {
      const { tok, literal } = this.consume(Context.Values);
      if (tok === Token.Identifier) {
        s.add(literal);
        const next = this.lookahead(Context.Values);
        if (next.tok === Token.Comma) continue;
        if (next.tok === Token.ClosedPar) return sorted();
        throw new LabelSelectorError(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (tok === Token.Comma) {
        if (s.size === 0) s.add(''); // "(,"
        const next = this.lookahead(Context.Values).tok;
        if (next === Token.ClosedPar) {
          s.add(''); // ",)"
          return sorted();
        }
        if (next === Token.Comma) {
          this.consume(Context.Values);
          s.add(''); // ",,"
        }
        continue;
      }
      throw new LabelSelectorError(`found '${literal}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): string[] {
    const ahead = this.lookahead(Context.Values).tok;
    if (ahead === Token.EndOfString || ahead === Token.Comma) return [''];
    const { tok, literal } = this.consume(Context.Values);
    if (tok === Token.Identifier) return [literal];
    throw new LabelSelectorError(`found '${literal}', expected: identifier`);
  }
}

/**
 * labels.Parse: `parseLabelSelector('app=web,tier in (a,b),!canary')`. Throws LabelSelectorError
 * with Kubernetes' message. `path` names the field in key errors (nil prints as `<nil>` in Go).
 */
export function parseLabelSelector(selector: string, path?: FieldPath): Selector {
  return Selector.everything().add(...parseToRequirements(selector, path));
}

/** labels.ParseToRequirements: the requirements sorted by key. */
export function parseToRequirements(selector: string, path?: FieldPath): Requirement[] {
  return sortByKey(new Parser(new Lexer(selector), path).parse());
}

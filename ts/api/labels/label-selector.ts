/**
 * Between the API's metav1.LabelSelector (matchLabels + matchExpressions) and label selectors
 * (k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go at v0.32).
 */
import { compareGo, goQuote } from '../go-format.js';
import type { LabelSelector, LabelSelectorRequirement } from '../meta.js';
import { LabelSelectorError, type Operator, parseToRequirements, Requirement, Selector } from './selector.js';

const OPERATORS: Readonly<Record<string, Operator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * LabelSelectorAsSelector: null/undefined selects nothing, an empty selector everything.
 * Throws LabelSelectorError (`"Foo" is not a valid label selector operator`, or NewRequirement's).
 */
export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): Selector {
  if (ps === null || ps === undefined) return Selector.nothing();
  const matchLabels = Object.entries(ps.matchLabels ?? {});
  const expressions = ps.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return Selector.everything();
  const reqs: Requirement[] = [];
  for (const [k, v] of matchLabels) reqs.push(Requirement.create(k, '=', [v]));
  for (const expr of expressions) {
    const op = Object.hasOwn(OPERATORS, expr.operator) ? OPERATORS[expr.operator] : undefined;
    if (op === undefined) {
      throw new LabelSelectorError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    }
    // Go copies with append([]string(nil), values...): no values stay a nil slice.
    const values = expr.values !== undefined && expr.values.length > 0 ? [...expr.values] : null;
    reqs.push(Requirement.create(expr.key, op, values));
  }
  return Selector.everything().add(...reqs);
}

/**
 * LabelSelectorAsMap: the old map form; only matchLabels and single-value In convert.
 * Throws LabelSelectorError for the rest.
 */
export function labelSelectorAsMap(ps: LabelSelector | null | undefined): Record<string, string> | undefined {
  if (ps === null || ps === undefined) return undefined;
  const out: Record<string, string> = { ...(ps.matchLabels ?? {}) };
  for (const expr of ps.matchExpressions ?? []) {
    const op = goQuote(expr.operator);
    switch (expr.operator) {
      case 'In': {
        const values = expr.values ?? [];
        if (values.length !== 1) {
          throw new LabelSelectorError(
            `operator ${op} without a single value cannot be converted into the old label selector format`,
          );
        }
        out[expr.key] = values[0] as string;
        break;
      }
      case 'NotIn':
      case 'Exists':
      case 'DoesNotExist':
        throw new LabelSelectorError(`operator ${op} cannot be converted into the old label selector format`);
      default:
        throw new LabelSelectorError(`${op} is not a valid selector operator`);
    }
  }
  return out;
}

/**
 * ParseToLabelSelector: a selector string as matchLabels (for = and ==) and matchExpressions.
 * `x>1`/`x<1` have no LabelSelector form and are rejected (`"gt" isn't supported in label selectors`).
 */
export function parseToLabelSelector(selector: string): LabelSelector {
  let reqs: Requirement[];
  try {
    reqs = parseToRequirements(selector);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new LabelSelectorError(`couldn't parse the selector string "${selector}": ${msg}`);
  }
  const matchLabels: Record<string, string> = {};
  const matchExpressions: LabelSelectorRequirement[] = [];
  for (const r of reqs) {
    let operator: LabelSelectorRequirement['operator'];
    switch (r.operator) {
      case '=':
      case '==':
        matchLabels[r.key] = r.values[0] as string;
        continue;
      case 'in':
        operator = 'In';
        break;
      case 'notin':
        operator = 'NotIn';
        break;
      case 'exists':
        operator = 'Exists';
        break;
      case '!':
        operator = 'DoesNotExist';
        break;
      default:
        // gt and lt
        throw new LabelSelectorError(`${goQuote(r.operator)} isn't supported in label selectors`);
    }
    const values = [...new Set(r.values)].sort(compareGo);
    matchExpressions.push(values.length === 0 ? { key: r.key, operator } : { key: r.key, operator, values });
  }
  return { matchLabels, matchExpressions };
}

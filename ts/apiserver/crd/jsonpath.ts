/**
 * The JSONPath of printer columns, as client-go's jsonpath evaluates `{<path>}` with missing keys
 * allowed (k8s.io/client-go/util/jsonpath, v1.32): fields (`.spec.replicas`, `['a.b']`), indexes
 * (`[0]`, `[-1]`), `[*]`, and filters `[?(@.type=="Ready")]`; the column takes the first result.
 * printText renders one result as PrintResults does: strings as they are, objects and arrays as
 * JSON, other values with Go's fmt.
 */
import { goFloat } from '../../api/go-format.js';
import { isObj } from './types.js';

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: string[]; op: '==' | '!='; value: string };

/** Parses a column path; undefined for one this subset cannot read. */
export function parseJsonPath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let i = 0;
  const s = path.trim().replace(/^\{|\}$/g, '');
  while (i < s.length) {
    const c = s[i];
    if (c === '.') {
      i++;
      const m = /^[^.[\]]*/.exec(s.slice(i));
      const name = m?.[0] ?? '';
      i += name.length;
      if (name === '*') steps.push({ kind: 'all' });
      else if (name !== '') steps.push({ kind: 'field', name });
    } else if (c === '[') {
      const end = s.indexOf(']', i);
      if (end < 0) return undefined;
      const inner = s.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'[^']*'$|^"[^"]*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const f = /^\?\(@((?:\.[^.=!]+)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|(\S+))\)$/.exec(inner);
        if (f === null) return undefined;
        steps.push({
          kind: 'filter',
          path: (f[1] as string).slice(1).split('.'),
          op: f[2] as '==' | '!=',
          value: f[3] ?? f[4] ?? f[5] ?? '',
        });
      }
    } else {
      return undefined;
    }
  }
  return steps;
}

function fieldOf(v: unknown, name: string): unknown[] {
  return isObj(v) && Object.hasOwn(v, name) ? [v[name]] : [];
}

/** The values `steps` find in `root`, in order. */
export function findResults(root: unknown, steps: readonly Step[]): unknown[] {
  let cur: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (step.kind === 'field') next.push(...fieldOf(v, step.name));
      else if (step.kind === 'index') {
        if (Array.isArray(v)) {
          const i = step.index < 0 ? v.length + step.index : step.index;
          if (i >= 0 && i < v.length) next.push(v[i]);
        }
      } else if (step.kind === 'all') {
        if (Array.isArray(v)) next.push(...v);
        else if (isObj(v))
          next.push(
            ...Object.keys(v)
              .sort()
              .map((k) => v[k]),
          );
      } else if (Array.isArray(v)) {
        for (const item of v) {
          let x: unknown = item;
          for (const f of step.path) x = isObj(x) ? x[f] : undefined;
          if (x === undefined) continue;
          const text = typeof x === 'string' ? x : printText(x);
          if ((text === step.value) === (step.op === '==')) next.push(item);
        }
      }
    }
    cur = next;
  }
  return cur;
}

/** One value as the jsonpath printer writes it. */
export function printText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * The shared table of the `*.test.ts` files of validation/kinds/: cases.json holds v1 objects as
 * clients send them, kinds.k8s.json what Kubernetes v1.32.4 answers for each (decoded, defaulted,
 * converted and validated by the Go program in ts/api/k8s-facts/kinds). Each test file runs its
 * kinds' cases.
 */
import { expect, it } from 'vitest';
import type { KubeObject } from '../../../meta.js';
import cases from '../cases.json' with { type: 'json' };
import { validateKindCreate, validateKindStatusUpdate, validateKindUpdateOf } from '../index.js';
import facts from '../kinds.k8s.json' with { type: 'json' };

interface Case {
  name: string;
  object: Record<string, unknown>;
  old?: Record<string, unknown>;
  /** A write through the status subresource. */
  status?: boolean;
  /** Compare only the first line (Kubernetes appends a cmp.Diff of internal structs). */
  messagePrefixOnly?: boolean;
  /** Fields whose bad value is an internal struct literal not reproduced here: reason and field only. */
  fieldOnlyFor?: string[];
}

interface Cause {
  reason: string;
  field: string;
  message: string;
}

const FACTS = facts as Record<string, Cause[]>;

function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/');
  return i < 0 ? '' : apiVersion.slice(0, i);
}

/** The causes this port gives for a case, in Kubernetes' Status cause shape. */
export function causesOf(c: Case): Cause[] {
  const obj = structuredClone(c.object) as KubeObject;
  const group = groupOf(String(c.object.apiVersion));
  const kind = String(c.object.kind);
  const old = structuredClone(c.old) as KubeObject;
  const errs =
    c.old === undefined
      ? validateKindCreate(group, kind, obj)
      : c.status
        ? validateKindStatusUpdate(group, kind, obj, old)
        : validateKindUpdateOf(group, kind, obj, old);
  return errs.map((e) => ({ reason: e.type, field: e.field, message: e.message }));
}

function normalize(c: Case, list: Cause[]): Cause[] {
  return list.map((x) => {
    if (c.fieldOnlyFor?.includes(x.field)) return { ...x, message: '' };
    if (c.messagePrefixOnly) return { ...x, message: x.message.split('\n')[0] ?? '' };
    return x;
  });
}

/** One `it` per case whose name starts with one of `prefixes`. */
export function runCases(...prefixes: string[]): void {
  const selected = (cases as Case[]).filter((c) => prefixes.some((p) => c.name.startsWith(p)));
  it('has cases', () => {
    expect(selected.length).toBeGreaterThan(0);
  });
  for (const c of selected) {
    it(c.name, () => {
      const want = FACTS[c.name];
      expect(want, `no Kubernetes answer for ${c.name}; regenerate kinds.k8s.json`).toBeDefined();
      expect(normalize(c, causesOf(c))).toEqual(normalize(c, want ?? []));
    });
  }
}

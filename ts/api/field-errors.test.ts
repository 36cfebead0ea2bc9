import { describe, expect, it } from 'vitest';
import {
  duplicate,
  errorListMessage,
  type FieldError,
  FieldErrorList,
  FieldPath,
  forbidden,
  internalError,
  invalid,
  notFound,
  notSupported,
  required,
  tooLong,
  tooMany,
  typeInvalid,
} from './field-errors.js';
import fixtures from './field-errors.k8s.json' with { type: 'json' };
import { GoLiteral } from './go-format.js';

// The same calls, in the same order, as the generator that ran k8s.io/apimachinery v0.32.4's
// field package to produce field-errors.k8s.json.
const p = FieldPath.root('metadata', 'name');
const cases: FieldError[] = [
  required(p, ''),
  required(p, 'name or generateName is required'),
  invalid(p, 'Bad', 'a lowercase thing'),
  invalid(p, '', 'must be specified for an update'),
  invalid(p, -1, 'must be greater than or equal to 0'),
  invalid(p, 7, 'x'),
  invalid(p, 7, 'go int'),
  invalid(p, 1.5, 'float'),
  invalid(p, 1234567.5, 'big float'),
  invalid(p, 0.00001, 'small float'),
  invalid(p, true, 'bool'),
  invalid(p, null, 'nil'),
  invalid(p, undefined, 'nil pointer'),
  invalid(p, 5, 'pointer'),
  invalid(p, ['a', 'b'], 'slice'),
  invalid(p, [], 'empty slice'),
  invalid(p, { b: '2', a: '1' }, 'map'),
  invalid(p, 'quote"back\\slash\nnew\ttab\u0000nul\u007fdel é 😀 \u00a0nbsp \u200bzw', 'escapes'),
  invalid(p, new GoLiteral('i-am-a-stringer'), 'stringer'),
  notSupported(FieldPath.root('spec', 'restartPolicy'), 'Sometimes', ['Always', 'OnFailure', 'Never']),
  notSupported(FieldPath.root('spec', 'x'), 'v', []),
  forbidden(FieldPath.root('metadata', 'namespace'), 'not allowed on this type'),
  forbidden(FieldPath.root('spec'), ''),
  tooLong(FieldPath.root('metadata', 'annotations'), 262144),
  tooLong(FieldPath.root('x'), -1),
  tooLong(FieldPath.root('x'), 3),
  tooMany(FieldPath.root('spec', 'containers'), 5, 3),
  tooMany(FieldPath.root('spec', 'containers'), -1, 3),
  tooMany(FieldPath.root('spec', 'containers'), 5, -1),
  duplicate(FieldPath.root('spec', 'containers').index(1).child('name'), 'web'),
  notFound(FieldPath.root('spec', 'volumes').index(0), 'vol'),
  internalError(FieldPath.root('spec'), new Error('boom')),
  typeInvalid(FieldPath.root('spec', 'replicas'), 'three', 'must be an integer'),
  invalid(FieldPath.root('metadata').child('labels').key('app.kubernetes.io/name'), 'x', 'k'),
  invalid(FieldPath.root('spec').child('containers').index(0).child('ports').index(2).child('containerPort'), 0, 'p'),
  invalid(undefined, 'v', 'nil path'),
  invalid(FieldPath.root(''), 'v', 'empty root'),
];

describe('field errors', () => {
  it('has one case per fixture', () => {
    expect(cases).toHaveLength(fixtures.length);
  });

  it.each(fixtures.map((f, i) => [f.error, i] as const))('%s', (_, i) => {
    const want = fixtures[i];
    const got = cases[i];
    expect(got?.type).toBe(want?.type);
    expect(got?.field).toBe(want?.field);
    expect(got?.errorBody()).toBe(want?.body);
    expect(got?.message).toBe(want?.error);
    expect(String(got)).toBe(want?.error);
  });

  it('aggregates like utilerrors: one alone, several bracketed, duplicates dropped', () => {
    const a = required(FieldPath.root('a'), '');
    const b = invalid(FieldPath.root('b'), 'x', 'bad');
    expect(errorListMessage([])).toBeUndefined();
    expect(errorListMessage([a])).toBe('a: Required value');
    expect(errorListMessage([a, b, a])).toBe('[a: Required value, b: Invalid value: "x": bad]');
    expect(new FieldErrorList([a, a]).errors).toHaveLength(1);
    expect(new FieldErrorList([a, b]).message).toBe('[a: Required value, b: Invalid value: "x": bad]');
  });

  it('builds paths like field.Path', () => {
    expect(FieldPath.root('spec', 'template', 'spec').child('containers').index(3).toString()).toBe(
      'spec.template.spec.containers[3]',
    );
    expect(FieldPath.root('metadata').key('a').key('b').child('c').toString()).toBe('metadata[a][b].c');
  });
});

import { describe, expect, it } from 'vitest';
import { compareLevels, LATEST, levelVersionString, older, parseLevel, parseVersion, v1 } from './levels.js';
import { DEFAULT_POLICY, fullyPrivileged, policyToEvaluate } from './namespace-policy.js';

const P = 'pod-security.kubernetes.io/';

describe('levels and versions (api/helpers.go)', () => {
  it('parses levels; an unknown one is restricted with the error', () => {
    expect(parseLevel('baseline')).toEqual({ level: 'baseline' });
    expect(parseLevel('Restricted')).toEqual({
      level: 'restricted',
      error: 'must be one of privileged, baseline, restricted',
    });
  });

  it.each([
    ['latest', 'latest'],
    ['v1.0', 'v1.0'],
    ['v1.25', 'v1.25'],
    ['v1.999', 'v1.999'],
  ])('parses version %s', (input, out) => {
    const r = parseVersion(input);
    expect(r.error).toBeUndefined();
    expect(levelVersionString({ level: 'baseline', version: r.version })).toBe(`baseline:${out}`);
  });

  it.each(['v1.01', 'v2.0', '1.25', 'v1', 'v1.', 'Latest', '', 'v1.99999999999999999999'])(
    'refuses version %j as latest',
    (input) => {
      expect(parseVersion(input)).toEqual({ version: LATEST, error: 'must be "latest" or "v1.x"' });
    },
  );

  it('orders versions and levels', () => {
    expect(older(v1(24), v1(25))).toBe(true);
    expect(older(v1(25), LATEST)).toBe(true);
    expect(older(LATEST, v1(99))).toBe(false);
    expect(compareLevels('restricted', 'baseline')).toBe(1);
    expect(compareLevels('baseline', 'restricted')).toBe(-1);
    expect(compareLevels('baseline', 'privileged')).toBe(1);
    expect(compareLevels('privileged', 'privileged')).toBe(0);
  });
});

describe('policyToEvaluate (namespace labels)', () => {
  it('takes the defaults without labels', () => {
    const { policy, errors } = policyToEvaluate(undefined);
    expect(policy).toEqual(DEFAULT_POLICY);
    expect(fullyPrivileged(policy)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('reads every mode and version', () => {
    const { policy, errors } = policyToEvaluate({
      [`${P}enforce`]: 'baseline',
      [`${P}enforce-version`]: 'v1.24',
      [`${P}audit`]: 'restricted',
      [`${P}warn`]: 'restricted',
      [`${P}warn-version`]: 'latest',
      'kubernetes.io/metadata.name': 'x',
    });
    expect(errors).toEqual([]);
    expect(levelVersionString(policy.enforce)).toBe('baseline:v1.24');
    expect(levelVersionString(policy.audit)).toBe('restricted:latest');
    expect(levelVersionString(policy.warn)).toBe('restricted:latest');
  });

  it('fails closed for enforce, open for audit and warn, to latest for versions, errors in label order', () => {
    const { policy, errors } = policyToEvaluate({
      [`${P}warn`]: 'bogus',
      [`${P}enforce-version`]: 'v2',
      [`${P}enforce`]: 'strict',
      [`${P}audit`]: '',
    });
    expect(levelVersionString(policy.enforce)).toBe('restricted:latest');
    expect(policy.audit.level).toBe('privileged');
    expect(policy.warn.level).toBe('privileged');
    expect(errors.map((e) => e.message)).toEqual([
      'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v2": must be "latest" or "v1.x"',
      'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "": must be one of privileged, baseline, restricted',
      'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "bogus": must be one of privileged, baseline, restricted',
    ]);
    expect(errors[0]?.type).toBe('FieldValueInvalid');
  });
});

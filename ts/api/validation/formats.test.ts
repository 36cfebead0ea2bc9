import { describe, expect, it } from 'vitest';
import { FieldPath } from '../field-errors.js';
import {
  isCIdentifier,
  isConfigMapKey,
  isDNS1123SubdomainWithUnderscore,
  isDomainPrefixedPath,
  isEnvVarName,
  isFullyQualifiedDomainName,
  isFullyQualifiedName,
  isHTTPHeaderName,
  isInRange,
  isRelaxedEnvVarName,
  isValidGroupID,
  isValidPercent,
  isValidPortName,
  isValidPortNum,
  isValidUserID,
  isWildcardDNS1123Subdomain,
} from './formats.js';
import fixtures from './formats.k8s.json' with { type: 'json' };

// formats.k8s.json: inputs from validation_test.go and more, through apimachinery v0.32.4.
const p = FieldPath.root('spec', 'x');
const show = (s: string) => (s.length > 40 ? `${s.slice(0, 20)}…(${s.length})` : JSON.stringify(s));

describe.each([
  ['IsCIdentifier', isCIdentifier, 'cIdentifier'],
  ['IsValidPortName', isValidPortName, 'portName'],
  ['IsValidPercent', isValidPercent, 'percent'],
  ['IsHTTPHeaderName', isHTTPHeaderName, 'httpHeaderName'],
  ['IsEnvVarName', isEnvVarName, 'envVarName'],
  ['IsRelaxedEnvVarName', isRelaxedEnvVarName, 'relaxedEnvVarName'],
  ['IsConfigMapKey', isConfigMapKey, 'configMapKey'],
  ['IsDNS1123SubdomainWithUnderscore', isDNS1123SubdomainWithUnderscore, 'subdomainUnderscore'],
  ['IsWildcardDNS1123Subdomain', isWildcardDNS1123Subdomain, 'wildcard'],
  ['IsFullyQualifiedName', (s: string) => isFullyQualifiedName(p, s).map(String), 'fullyQualifiedName'],
  ['IsFullyQualifiedDomainName', (s: string) => isFullyQualifiedDomainName(p, s).map(String), 'fullyQualifiedDomain'],
  ['IsDomainPrefixedPath', (s: string) => isDomainPrefixedPath(p, s).map(String), 'domainPrefixedPath'],
] as const)('%s', (_, fn, key) => {
  it.each(fixtures.strings.map((f) => [show(f.in), f] as const))('%s', (_, f) => {
    expect(fn(f.in)).toEqual(f[key]);
  });
});

describe('numbers', () => {
  it.each(fixtures.numbers.map((f) => [f.in, f] as const))('%d', (n, f) => {
    expect(isValidPortNum(n)).toEqual(f.portNum);
    expect(isInRange(n, 0, 100)).toEqual(f.inRange);
    expect(isValidGroupID(n)).toEqual(f.groupID);
    expect(isValidUserID(n)).toEqual(f.userID);
  });
});

import { describe, expect, it } from 'vitest';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maxLenError,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  regexError,
  validatePathSegmentName,
} from './names.js';
import fixtures from './names.k8s.json' with { type: 'json' };

// names.k8s.json: the inputs of validation_test.go (TestIsDNS1123Label, TestIsDNS1123Subdomain,
// TestIsDNS1035Label, TestIsQualifiedName, TestIsValidLabelValue) and path/name_test.go plus a few
// more, with the messages k8s.io/apimachinery v0.32.4 returned for each.
const label = (s: string) => (s.length > 40 ? `${s.slice(0, 20)}…(${s.length})` : JSON.stringify(s));

describe.each([
  ['IsDNS1123Label', isDNS1123Label, 'dns1123Label'],
  ['IsDNS1123Subdomain', isDNS1123Subdomain, 'dns1123Subdomain'],
  ['IsDNS1035Label', isDNS1035Label, 'dns1035Label'],
  ['IsQualifiedName', isQualifiedName, 'qualifiedName'],
  ['IsValidLabelValue', isValidLabelValue, 'labelValue'],
  ['NameIsDNSSubdomain(prefix)', (s: string) => nameIsDNSSubdomain(s, true), 'subdomainPrefix'],
  ['NameIsDNSLabel(prefix)', (s: string) => nameIsDNSLabel(s, true), 'labelPrefix'],
  ['NameIsDNS1035Label(prefix)', (s: string) => nameIsDNS1035Label(s, true), 'dns1035Prefix'],
  ['ValidatePathSegmentName', (s: string) => validatePathSegmentName(s, false), 'pathSegment'],
  ['ValidatePathSegmentName(prefix)', (s: string) => validatePathSegmentName(s, true), 'pathSegmentPrefix'],
] as const)('%s', (_, fn, key) => {
  it.each(fixtures.map((f) => [label(f.in), f] as const))('%s', (_, f) => {
    expect(fn(f.in)).toEqual(f[key]);
  });
});

describe('messages', () => {
  it('reads as kube-apiserver v1.32 writes it', () => {
    expect(isDNS1123Subdomain('Bad')).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(maxLenError(63)).toBe('must be no more than 63 characters');
    // Kubernetes' RegexError really has two spaces before each "or".
    expect(regexError('m', 're', 'a', 'b')).toBe("m (e.g. 'a',  or 'b', regex used for validation is 're')");
    expect(regexError('m', 're')).toBe("m (regex used for validation is 're')");
  });

  it('counts bytes, not characters, against the maximum length', () => {
    expect(isValidLabelValue('é'.repeat(32))).toContain('must be no more than 63 characters');
  });

  it('lets a generateName end in a dash', () => {
    expect(nameIsDNSSubdomain('web-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('web-', false)).not.toEqual([]);
    expect(validatePathSegmentName('..', false)).toEqual(["may not be '..'"]);
    expect(validatePathSegmentName('a/b%', false)).toEqual(["may not contain '/'", "may not contain '%'"]);
  });
});

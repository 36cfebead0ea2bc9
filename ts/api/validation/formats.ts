/**
 * The other string and number formats of k8s.io/apimachinery/pkg/util/validation (v0.32) that
 * object validation uses: C identifiers, ports, IDs, percentages, header and environment variable
 * names, ConfigMap keys, wildcard and fully qualified domains. Same messages, same quirks.
 */
import { type ErrorList, type FieldPath, invalid, required } from '../field-errors.js';
import { byteLength } from '../go-format.js';
import {
  DNS1123_SUBDOMAIN_MAX_LENGTH,
  emptyError,
  inclusiveRangeError,
  isDNS1123Label,
  isDNS1123Subdomain,
  maxLenError,
  regexError,
} from './names.js';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;

const cIdentifierFmt = '[A-Za-z_][A-Za-z0-9_]*';
const cIdentifierRegexp = new RegExp(`^${cIdentifierFmt}$`);

/** IsCIdentifier: `[A-Za-z_][A-Za-z0-9_]*` (no length limit). */
export function isCIdentifier(value: string): string[] {
  if (cIdentifierRegexp.test(value)) return [];
  return [
    regexError(
      "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'",
      cIdentifierFmt,
      'my_name',
      'MY_NAME',
      'MyName',
    ),
  ];
}

/** IsValidPortNum: 1–65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsInRange: min ≤ value ≤ max. */
export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

// v0.32 bounds UIDs and GIDs by MaxInt32 (later versions allow uint32).
const MAX_ID = 2147483647;

/** IsValidGroupID: 0–2147483647. */
export function isValidGroupID(gid: number): string[] {
  return gid >= 0 && gid <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** IsValidUserID: 0–2147483647. */
export function isValidUserID(uid: number): string[] {
  return uid >= 0 && uid <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** IsValidPortName: an IANA_SVC_NAME, at most 15 of `[-a-z0-9]` with a letter, no `--`, no edge `-`. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (byteLength(port) > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) {
    errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) {
    errs.push('must not begin or end with a hyphen');
  }
  return errs;
}

/** IsValidPercent: `[0-9]+%`. */
export function isValidPercent(percent: string): string[] {
  if (/^[0-9]+%$/.test(percent)) return [];
  return [
    regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%'),
  ];
}

/** IsHTTPHeaderName: `[-A-Za-z0-9]+`. */
export function isHTTPHeaderName(value: string): string[] {
  if (/^[-A-Za-z0-9]+$/.test(value)) return [];
  return [
    regexError("a valid HTTP header must consist of alphanumeric characters or '-'", '[-A-Za-z0-9]+', 'X-Header-Name'),
  ];
}

/** hasChDirPrefix: ".", ".." and "..x" would climb directories when used as file names. */
function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const envVarNameFmt = '[-._a-zA-Z][-._a-zA-Z0-9]*';

/** IsEnvVarName: `[-._a-zA-Z][-._a-zA-Z0-9]*`, not "." or "..". */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!new RegExp(`^${envVarNameFmt}$`).test(value)) {
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        envVarNameFmt,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

/** IsRelaxedEnvVarName: non-empty printable ASCII other than '='. */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push(`environment variable name ${emptyError()}`);
  for (const ch of value) {
    const r = ch.codePointAt(0) ?? 0;
    if (r > 0x7f || r < 0x20 || r === 0x7f || ch === '=') {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

const configMapKeyFmt = '[-._a-zA-Z0-9]+';

/** IsConfigMapKey: a ConfigMap or Secret key, at most 253 characters, not "." or "..". */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!new RegExp(`^${configMapKeyFmt}$`).test(value)) {
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        configMapKeyFmt,
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    );
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

const dns1123SubdomainWithUnderscore = /^_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*$/;

/** IsDNS1123SubdomainWithUnderscore (its message shows the plain subdomain regex, as Kubernetes' does). */
export function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainWithUnderscore.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
        dns1123SubdomainFmt,
        'example.com',
      ),
    );
  }
  return errs;
}

const wildcardFmt = `\\*\\.${dns1123SubdomainFmt}`;

/** IsWildcardDNS1123Subdomain: `*.example.com`. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!new RegExp(`^${wildcardFmt}$`).test(value)) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        wildcardFmt,
        '*.example.com',
      ),
    );
  }
  return errs;
}

/** IsFullyQualifiedName: a subdomain of at least three labels (deprecated in Kubernetes). */
export function isFullyQualifiedName(path: FieldPath, name: string): ErrorList {
  if (name.length === 0) return [required(path, '')];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) {
    return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  }
  return [];
}

/** IsFullyQualifiedDomainName: a subdomain of at least two labels; a trailing '.' is allowed. */
export function isFullyQualifiedDomainName(path: FieldPath, domain: string): ErrorList {
  if (domain.length === 0) return [required(path, '')];
  const name = domain.endsWith('.') ? domain.slice(0, -1) : domain;
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 2) {
    return [invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  }
  for (const label of name.split('.')) {
    const labelErrs = isDNS1123Label(label);
    if (labelErrs.length > 0) return [invalid(path, label, labelErrs.join(','))];
  }
  return [];
}

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/** IsDomainPrefixedPath: `acme.io/foo` (a subdomain, '/', then RFC 3986 path characters). */
export function isDomainPrefixedPath(path: FieldPath, dpPath: string): ErrorList {
  if (dpPath.length === 0) return [required(path, '')];
  const slash = dpPath.indexOf('/');
  const host = slash < 0 ? dpPath : dpPath.slice(0, slash);
  const rest = slash < 0 ? '' : dpPath.slice(slash + 1);
  if (slash < 0 || host.length === 0 || rest.length === 0) {
    return [invalid(path, dpPath, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs: ErrorList = isDNS1123Subdomain(host).map((msg) => invalid(path, host, msg));
  if (!new RegExp(`^${httpPathFmt}$`).test(rest)) {
    errs.push(invalid(path, rest, regexError('Invalid path', httpPathFmt)));
  }
  return errs;
}

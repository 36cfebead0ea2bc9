/**
 * Kubernetes' version ordering (k8s.io/apimachinery/pkg/version/helpers.go
 * CompareKubeAwareVersionStrings): GA before beta before alpha, higher major then higher minor
 * first; versions that are not Kubernetes-like (`foo1`) come last, in lexical order. Discovery
 * lists a CRD group's versions in this order, the first being the preferred one.
 */

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

interface Parsed {
  major: number;
  /** 2 GA, 1 beta, 0 alpha. */
  type: number;
  minor: number;
}

function parse(v: string): Parsed | undefined {
  const m = KUBE_VERSION.exec(v);
  if (m === null) return undefined;
  const major = Number(m[1]);
  if (major === 0 || (m[1] as string).startsWith('0')) return undefined;
  if (m[2] === undefined) return { major, type: 2, minor: 0 };
  const minor = Number(m[3]);
  if ((m[3] as string).startsWith('0')) return undefined;
  return { major, type: m[2] === 'beta' ? 1 : 0, minor };
}

/** Negative when `a` sorts before (is preferred to) `b`. */
export function compareVersionPriority(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined && pb === undefined) return a < b ? -1 : a > b ? 1 : 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  if (pa.type !== pb.type) return pb.type - pa.type;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

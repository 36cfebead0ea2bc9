/**
 * k8s.io/apimachinery/pkg/util/intstr at v0.32: what an int-or-percent value comes to — the
 * Deployment controller's maxSurge/maxUnavailable, the disruption controller's
 * minAvailable/maxUnavailable.
 *
 *   getScaledValueFromIntOrPercent('25%', 10, true)   // 3
 */
import type { IntOrString } from './types/intstr.js';

/**
 * intstr.GetScaledValueFromIntOrPercent: an int as is, `N%` of `total` rounded up or down.
 * Throws, as Go returns an error, for nothing, a string without `%`, or a bad number.
 */
export function getScaledValueFromIntOrPercent(
  v: IntOrString | null | undefined,
  total: number,
  roundUp: boolean,
): number {
  if (v === undefined || v === null) throw new Error('nil value for IntOrString');
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const s = v.slice(0, -1);
  const n = /^[+-]?\d+$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    throw new Error(
      `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`,
    );
  }
  return roundUp ? Math.ceil((n * total) / 100) : Math.floor((n * total) / 100);
}

/**
 * What the admission plugins are given (kube-apiserver's admission initializers hand them informers
 * and a client): the storage, the apiserver's shared informers, which the lister (lister.ts) reads
 * the objects they consult from while those answer as a storage read would, and the clock.
 */
import type { Clock } from '../../sim/clock.js';
import type { ListerSource } from './lister.js';

export interface AdmissionDeps extends ListerSource {
  clock: Clock;
  /** Waits between live lookups (ServiceAccount's retries for `default`); real time by default. */
  sleep?: (ms: number) => Promise<void>;
}

export const realSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    (t as { unref?: () => void }).unref?.();
  });

/**
 * What the in-process bad-request tests (test/bad-requests/*.test.ts) share: the store snapshot that
 * proves a refused request wrote nothing, and the check of the Status it was refused with.
 */
import { expect } from 'vitest';
import type { Storage } from '../../ts/storage/storage.js';

export interface StoreSnapshot {
  revision: string;
  /** Every key under /registry/ → `revision:value`. */
  objects: Record<string, string>;
}

/** Every stored key and value, and the store revision: equal before and after = nothing was written. */
export async function snapshot(storage: Storage): Promise<StoreSnapshot> {
  const page = await storage.list('/registry/');
  const objects: Record<string, string> = {};
  const text = new TextDecoder();
  for (const item of page.items) objects[item.key] = `${item.revision}:${text.decode(item.value)}`;
  return { revision: String(await storage.currentRevision()), objects };
}

/** A refusal as a case expects it: the code, the reason, the message (exact or a pattern), the details. */
export interface Refusal {
  code: number;
  reason: string;
  message: string | RegExp;
  details?: Record<string, unknown> | undefined;
}

/** That `res` is the failure Status `want` describes (toEqual on the details when given). */
export function expectRefusal(res: { status: number; body: Record<string, unknown> }, want: Refusal): void {
  expect(res.status).toBe(want.code);
  expect(res.body).toMatchObject({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    reason: want.reason,
    code: want.code,
  });
  if (typeof want.message === 'string') expect(res.body.message).toBe(want.message);
  else expect(res.body.message).toMatch(want.message);
  if (want.details) expect(res.body.details).toEqual(want.details);
}

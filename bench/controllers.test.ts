import { describe, expect, it } from 'vitest';
import { loadKubewasm } from '../ts/wasm/node.js';
import { runControllersBench } from './controllers.js';

describe('bench controllers', () => {
  it('runs both cases to the end at a small size and writes every row', async () => {
    const rows = await runControllersBench(await loadKubewasm(), { deployments: 5, rolloutReplicas: 20 });
    const value = (kase: string, impl: string, metric: string) =>
      rows.find((r) => r.case === kase && r.impl === impl && r.metric === metric)?.value;
    expect(value('deployments-5x10', 'kubewasm', 'deployments/s')).toBeGreaterThan(0);
    // Every pod was made and marked Ready by the stub once.
    expect(value('deployments-5x10', 'ready-stub', 'stub patches')).toBe(50);
    expect(value('rollout-20', 'kubewasm', 'rollout seconds')).toBeGreaterThan(0);
    expect(value('rollout-20', 'ready-stub', 'stub patches')).toBe(20);
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { rfc3339 } from '../../api/time.js';
import type { Job } from '../../api/types/batch/v1.js';
import { RESOURCES } from '../../client/resources.js';
import { type Harness, harness } from '../../client/testing/harness.js';
import { controllerRuns, notFound, waitFor } from '../testing/controller-runs.js';
import { needsCleanup, TTLAfterFinishedController, timeLeft } from './ttl-after-finished-controller.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

/** newJob (ttlafterfinished_controller_test.go): Complete and/or Failed at the given times. */
function newJob(completionTime: number | undefined, failedTime: number | undefined, ttl: number | undefined): Job {
  return {
    metadata: { name: 'foobar', namespace: 'default' },
    spec: {
      selector: { matchLabels: { foo: 'bar' } },
      template: { metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: 'c', image: 'foo/bar' }] } },
      ...(ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl }),
    },
    status: {
      conditions: [
        ...(completionTime === undefined
          ? []
          : [{ type: 'Complete', status: 'True' as const, lastTransitionTime: rfc3339(completionTime) }]),
        ...(failedTime === undefined
          ? []
          : [{ type: 'Failed', status: 'True' as const, lastTransitionTime: rfc3339(failedTime) }]),
      ],
    },
  };
}

describe('timeLeft (TestTimeLeft)', () => {
  const cases: Array<{
    name: string;
    completion?: number;
    failed?: number;
    ttl?: number;
    err?: string;
    left?: number;
    expireAt?: number;
  }> = [
    { name: 'Error case: Job unfinished', ttl: 100, err: 'should not be cleaned up' },
    { name: 'Error case: Job completed now, no TTL', completion: NOW, err: 'should not be cleaned up' },
    { name: 'Job completed now, 0s TTL', completion: NOW, ttl: 0, left: 0, expireAt: NOW },
    { name: 'Job completed now, 10s TTL', completion: NOW, ttl: 10, left: 10_000, expireAt: NOW + 10_000 },
    { name: 'Job completed 10s ago, 15s TTL', completion: NOW - 10_000, ttl: 15, left: 5000, expireAt: NOW + 5000 },
    { name: 'Error case: Job failed now, no TTL', failed: NOW, err: 'should not be cleaned up' },
    { name: 'Job failed now, 0s TTL', failed: NOW, ttl: 0, left: 0, expireAt: NOW },
    { name: 'Job failed now, 10s TTL', failed: NOW, ttl: 10, left: 10_000, expireAt: NOW + 10_000 },
    { name: 'Job failed 10s ago, 15s TTL', failed: NOW - 10_000, ttl: 15, left: 5000, expireAt: NOW + 5000 },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const job = newJob(tc.completion, tc.failed, tc.ttl);
      if (tc.err !== undefined) {
        expect(() => timeLeft(job, NOW)).toThrow(tc.err);
        return;
      }
      expect(timeLeft(job, NOW)).toEqual({ remaining: tc.left, expireAt: tc.expireAt });
    });
  }
  it('a finished condition without a time is an error', () => {
    const job = newJob(undefined, undefined, 10);
    job.status = { conditions: [{ type: 'Complete', status: 'True' }] };
    expect(() => timeLeft(job, NOW)).toThrow('unable to find the time when the Job default/foobar finished');
  });
  it('needsCleanup: a TTL and a True Complete or Failed condition', () => {
    expect(needsCleanup(newJob(NOW, undefined, 0))).toBe(true);
    expect(needsCleanup(newJob(undefined, undefined, 0))).toBe(false);
    expect(needsCleanup(newJob(NOW, undefined, undefined))).toBe(false);
  });
});

describe('TTLAfterFinishedController', () => {
  const runs = controllerRuns();
  const start = (h: Harness) =>
    runs.start(h, (factory) => new TTLAfterFinishedController({ factory, client: h.client, clock: h.server.clock }));

  /** A job made finished (Complete now, on the server's clock) with `ttl`. */
  async function finishedJob(h: Harness, name: string, ttl: number | undefined, finished = true): Promise<Job> {
    const job = await h.client.create(RESOURCES.jobs, 'default', {
      metadata: { name },
      spec: {
        ...(ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl }),
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } },
      },
    } as Job);
    if (!finished) return job;
    const at = rfc3339(h.server.clock.now());
    return h.client.updateStatus(RESOURCES.jobs, 'default', {
      ...job,
      status: { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: at, lastProbeTime: at }] },
    });
  }
  const deleting = async (h: Harness, name: string) => {
    try {
      const j = await h.client.get(RESOURCES.jobs, 'default', name);
      return j.metadata?.deletionTimestamp !== undefined;
    } catch (err) {
      return notFound(() => Promise.reject(err));
    }
  };

  it('deletes a finished job once its TTL has passed, in the foreground', async () => {
    const h = await harness('in-process');
    await finishedJob(h, 'ttl10', 10);
    await finishedJob(h, 'no-ttl', undefined);
    await finishedJob(h, 'running', 0, false);
    await finishedJob(h, 'ttl0', 0);
    await start(h);
    await waitFor(() => deleting(h, 'ttl0'));
    h.server.clock.advance(9000);
    await new Promise((r) => setTimeout(r, 50));
    expect(await deleting(h, 'ttl10')).toBe(false);
    h.server.clock.advance(1000);
    await waitFor(() => deleting(h, 'ttl10'));
    // Foreground propagation: the garbage collector deletes the pods first.
    const job = await h.client.get(RESOURCES.jobs, 'default', 'ttl10');
    expect(job.metadata?.finalizers).toContain('foregroundDeletion');
    h.server.clock.advance(3600_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(await deleting(h, 'no-ttl')).toBe(false);
    expect(await deleting(h, 'running')).toBe(false);
  });

  it('reads the job again before deleting it: a TTL raised meanwhile is waited for', async () => {
    const h = await harness('in-process');
    const job = await finishedJob(h, 'raised', 10);
    await start(h);
    h.server.clock.advance(5000);
    await h.client.update(RESOURCES.jobs, 'default', {
      ...job,
      spec: { ...(job.spec as Job['spec'] & object), ttlSecondsAfterFinished: 60 },
    });
    await new Promise((r) => setTimeout(r, 50));
    h.server.clock.advance(5000);
    await new Promise((r) => setTimeout(r, 50));
    expect(await deleting(h, 'raised')).toBe(false);
    h.server.clock.advance(50_000);
    await waitFor(() => deleting(h, 'raised'));
  });
});

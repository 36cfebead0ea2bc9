// client-go's leader election over a real in-process apiserver and a virtual clock: the facts of
// tools/leaderelection/leaderelection_test.go (v0.32) — acquire, stand by, take over an expired
// lease, release on cancel, lose a lease that cannot be renewed — and NewLeaderElector's checks.
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../resources.js';
import { eventually, type Harness, harness } from '../testing/harness.js';
import { type LeaderElectionConfig, LeaderElector } from './leader-elector.js';

const electors: LeaderElector[] = [];
afterEach(async () => {
  for (const e of electors.splice(0)) await e.stop();
});

/** A candidate on `h` whose callbacks are logged into `log` as `<identity>:<event>`. */
function candidate(h: Harness, identity: string, log: string[], extra: Partial<LeaderElectionConfig> = {}) {
  const elector = new LeaderElector({
    client: h.client,
    namespace: 'kube-system',
    name: 'kube-controller-manager',
    identity,
    clock: h.server.clock,
    random: () => 0,
    onStartedLeading: () => log.push(`${identity}:started`),
    onStoppedLeading: () => log.push(`${identity}:stopped`),
    ...extra,
  });
  electors.push(elector);
  void elector.run();
  return elector;
}

/** A test apiserver with kube-system, where kube-controller-manager's Lease lives. */
async function cluster(): Promise<Harness> {
  const h = await harness('in-process');
  await h.client.create(RESOURCES.namespaces, undefined, { metadata: { name: 'kube-system' } });
  return h;
}

const lease = (h: Harness) => h.client.get(RESOURCES.leases, 'kube-system', 'kube-controller-manager');

/** Advances the virtual clock in retry-period steps, letting the candidates' calls finish between. */
async function advance(h: Harness, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    h.server.clock.advance(1000);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('LeaderElector', () => {
  it('creates the Lease and leads; a second candidate stands by while it is renewed', async () => {
    const h = await cluster();
    const log: string[] = [];
    const a = candidate(h, 'a', log);
    await eventually(() => a.isLeader());
    expect((await lease(h)).spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 });
    const b = candidate(h, 'b', log);
    await advance(h, 30_000);
    expect([a.isLeader(), b.getLeader()]).toEqual([true, 'a']);
    expect(log).toEqual(['a:started']);
    // Renewed every retry period: renewTime moves, acquireTime stays.
    const spec = (await lease(h)).spec;
    expect(Date.parse(spec?.renewTime ?? '')).toBeGreaterThan(Date.parse(spec?.acquireTime ?? ''));
  });

  it('takes over a lease its holder stopped renewing, once it has gone unrenewed for its duration', async () => {
    const h = await cluster();
    const log: string[] = [];
    const a = candidate(h, 'a', log);
    await eventually(() => a.isLeader());
    await a.stop();
    const b = candidate(h, 'b', log);
    await advance(h, 10_000);
    expect(b.isLeader()).toBe(false);
    await advance(h, 10_000);
    await eventually(() => b.isLeader());
    expect((await lease(h)).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(log).toEqual(['a:started', 'a:stopped', 'b:started']);
  });

  it('gives the lease up on stop with releaseOnCancel, so a stand-by leads at its next retry', async () => {
    const h = await cluster();
    const log: string[] = [];
    const a = candidate(h, 'a', log, { releaseOnCancel: true });
    await eventually(() => a.isLeader());
    const b = candidate(h, 'b', log);
    await advance(h, 2000);
    await a.stop();
    expect((await lease(h)).spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    await advance(h, 3000);
    await eventually(() => b.isLeader());
  });

  it('stops leading when it cannot renew within the renew deadline', async () => {
    const h = await cluster();
    const log: string[] = [];
    const errors: unknown[] = [];
    const a = candidate(h, 'a', log, { onError: (err) => errors.push(err) });
    await eventually(() => a.isLeader());
    // Someone else holds it now (a write a no longer matches): a's renewals fail until the deadline.
    const current = await lease(h);
    await h.client.update(RESOURCES.leases, 'kube-system', {
      ...current,
      spec: { ...current.spec, holderIdentity: 'intruder', renewTime: current.spec?.renewTime ?? null },
    });
    await advance(h, 12_000);
    await eventually(() => log.includes('a:stopped'));
    expect(errors.length).toBeGreaterThan(0);
  });

  it('refuses the configurations NewLeaderElector refuses', () => {
    const base = {
      client: undefined as never,
      namespace: 'kube-system',
      name: 'x',
      identity: 'a',
      onStartedLeading: () => {},
      onStoppedLeading: () => {},
    };
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 10_000 })).toThrow(
      'leaseDuration must be greater than renewDeadline',
    );
    expect(() => new LeaderElector({ ...base, retryPeriodMs: 9000 })).toThrow(
      'renewDeadline must be greater than retryPeriod*JitterFactor',
    );
    expect(() => new LeaderElector({ ...base, identity: '' })).toThrow('Lock identity is empty');
  });
});

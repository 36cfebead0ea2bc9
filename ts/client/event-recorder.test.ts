import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/meta.js';
import { type CoreEvent, EventRecorder } from './event-recorder.js';
import { RESOURCES } from './resources.js';
import { harness } from './testing/harness.js';

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '7' },
});

async function events(client: Awaited<ReturnType<typeof harness>>['client']): Promise<CoreEvent[]> {
  return (await client.list<CoreEvent>(RESOURCES.events, { namespace: 'default' })).items;
}

describe('EventRecorder', () => {
  it('writes an Event naming the object and the component', async () => {
    const { client, server } = await harness('in-process');
    const recorder = new EventRecorder({ client, clock: server.clock, component: 'kubewasm-test', host: 'h1' });
    recorder.record(pod('p'), 'Normal', 'Started', 'started it');
    await recorder.flush();
    const [e] = await events(client);
    expect(e).toMatchObject({
      involvedObject: {
        kind: 'Pod',
        apiVersion: 'v1',
        namespace: 'default',
        name: 'p',
        uid: 'uid-p',
        resourceVersion: '7',
      },
      reason: 'Started',
      message: 'started it',
      type: 'Normal',
      count: 1,
      source: { component: 'kubewasm-test', host: 'h1' },
      reportingComponent: 'kubewasm-test',
      reportingInstance: 'h1',
      firstTimestamp: '2025-01-01T00:00:00Z',
      lastTimestamp: '2025-01-01T00:00:00Z',
    });
    expect(e?.metadata?.name).toMatch(/^p\.[0-9a-f]+$/);
  });

  it('counts repeats on the first Event, keeping its first timestamp', async () => {
    const { client, server } = await harness('in-process');
    const recorder = new EventRecorder({ client, clock: server.clock, component: 'c' });
    recorder.record(pod('p'), 'Warning', 'BackOff', 'again');
    server.clock.advance(5000);
    recorder.record(pod('p'), 'Warning', 'BackOff', 'again');
    recorder.record(pod('p'), 'Warning', 'BackOff', 'again');
    recorder.record(pod('p'), 'Warning', 'BackOff', 'different');
    await recorder.flush();
    const list = await events(client);
    expect(list).toHaveLength(2);
    const again = list.find((e) => e.message === 'again');
    expect(again).toMatchObject({
      count: 3,
      firstTimestamp: '2025-01-01T00:00:00Z',
      lastTimestamp: '2025-01-01T00:00:05Z',
    });
  });

  it('combines more than 10 similar events and drops what the spam filter refuses', async () => {
    const { client, server } = await harness('in-process');
    const recorder = new EventRecorder({ client, clock: server.clock, component: 'c' });
    for (let i = 0; i < 12; i++) recorder.record(pod('q'), 'Normal', 'Pulled', `image ${i}`);
    await recorder.flush();
    const list = await events(client);
    expect(list).toHaveLength(10);
    const combined = list.find((e) => e.message.startsWith('(combined from similar events): '));
    expect(combined).toMatchObject({ count: 3, message: '(combined from similar events): image 11' });
    // 25 tokens per object, 12 spent: 13 more pass, the rest is dropped until tokens come back.
    for (let i = 0; i < 20; i++) recorder.record(pod('q'), 'Normal', 'Pulled', 'same');
    expect(recorder.dropped).toBe(7);
    server.clock.advance(300_000);
    recorder.record(pod('q'), 'Normal', 'Pulled', 'same');
    expect(recorder.dropped).toBe(7);
    await recorder.flush();
  });
});

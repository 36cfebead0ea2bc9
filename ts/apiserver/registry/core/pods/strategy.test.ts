import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../../client/resources.js';
import { harness } from '../../../../client/testing/harness.js';

describe('the pod strategy', () => {
  it('round-trips podIP and podIPs (hostIP and hostIPs) as v1 conversion does', async () => {
    const { client } = await harness('in-process');
    const pod = await client.create(RESOURCES.pods, 'default', {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'x' }] },
    });
    // A kubelet of old writes the single fields: the lists follow.
    const single = await client.updateStatus(RESOURCES.pods, 'default', {
      ...pod,
      status: { phase: 'Running', podIP: '10.244.0.7', hostIP: '192.168.0.2' },
    });
    expect(single.status).toMatchObject({
      podIP: '10.244.0.7',
      podIPs: [{ ip: '10.244.0.7' }],
      hostIP: '192.168.0.2',
      hostIPs: [{ ip: '192.168.0.2' }],
    });
    // With the lists, the single fields are their first entries.
    const lists = await client.updateStatus(RESOURCES.pods, 'default', {
      ...single,
      status: { phase: 'Running', podIPs: [{ ip: '10.244.0.8' }, { ip: 'fd00::8' }], hostIPs: [{ ip: '192.168.0.3' }] },
    });
    expect(lists.status).toMatchObject({ podIP: '10.244.0.8', hostIP: '192.168.0.3' });
    expect(lists.status?.podIPs).toEqual([{ ip: '10.244.0.8' }, { ip: 'fd00::8' }]);
  });
});

import { describe, expect, it } from 'vitest';
import { strategicMergePatch } from './strategic-merge.js';

describe('strategic merge patch lists of the kinds added with the resource table', () => {
  it('Service ports merge by port; Endpoints and EndpointSlice ports are replaced', () => {
    const svc = { spec: { ports: [{ name: 'a', port: 80 }] } };
    expect(strategicMergePatch(svc, { spec: { ports: [{ port: 443, name: 'b' }] } })).toEqual({
      spec: {
        // An element new to the original goes before the original's (normalizeElementOrder).
        ports: [
          { port: 443, name: 'b' },
          { name: 'a', port: 80 },
        ],
      },
    });
    const ep = { subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'a', port: 80 }] }] };
    expect(
      strategicMergePatch(ep, { subsets: [{ addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'b', port: 81 }] }] }),
    ).toEqual({ subsets: [{ addresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'b', port: 81 }] }] });
    const slice = { addressType: 'IPv4', ports: [{ name: 'a', port: 80 }] };
    expect(strategicMergePatch(slice, { ports: [{ name: 'b', port: 80 }] })).toEqual({
      addressType: 'IPv4',
      ports: [{ name: 'b', port: 80 }],
    });
  });
});

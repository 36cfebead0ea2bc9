// resourcehelper.PodRequests (component-helpers/resource/helpers_test.go TestPodRequests) and the
// scheduler's non-zero defaults (schedutil.GetNonzeroRequests).

import { describe, expect, it } from 'vitest';
import { DEFAULT_MEMORY_REQUEST, isScalarResourceName, podRequests } from './resources.js';
import { makePod } from './testing.js';

const req = (cpu: string, memory: string) => ({ resources: { requests: { cpu, memory } } });

describe('podRequests', () => {
  it('sums containers and adds overhead', () => {
    const pod = makePod('p', { containers: [req('100m', '1Ki'), req('150m', '1Ki')], overhead: { cpu: '10m' } });
    expect(Object.fromEntries(podRequests(pod))).toEqual({ cpu: 260, memory: 2048 });
  });
  it('takes the max of init containers and the app sum', () => {
    const pod = makePod('p', { containers: [req('1', '1')], initContainers: [req('2', '1'), req('500m', '5')] });
    expect(Object.fromEntries(podRequests(pod))).toEqual({ cpu: 2000, memory: 5 });
  });
  it('"restartable init container" — sidecars add to the steady state and to later init phases', () => {
    // sidecar 1 cpu; app 1 cpu; later init 1.5 cpu runs with the sidecar: max(2, 2.5) = 2.5.
    const pod = makePod('p', {
      containers: [req('1', '1')],
      initContainers: [{ restartPolicy: 'Always', ...req('1', '1') }, req('1500m', '1')],
    });
    expect(podRequests(pod).get('cpu')).toBe(2500);
  });
  it('non-zero defaults apply to containers lacking a request, not to explicit zeros', () => {
    const pod = makePod('p', { containers: [{}, req('0', '0')] });
    expect(Object.fromEntries(podRequests(pod, { nonMissingDefaults: true }))).toEqual({
      cpu: 100,
      memory: DEFAULT_MEMORY_REQUEST,
    });
    expect(Object.fromEntries(podRequests(pod))).toEqual({ cpu: 0, memory: 0 });
  });
  it('sums exactly before rounding (two 0.5m containers make 1m)', () => {
    expect(podRequests(makePod('p', { containers: [req('500u', '0'), req('500u', '0')] })).get('cpu')).toBe(1);
  });
  it('tracks only resources the scheduler knows', () => {
    expect(isScalarResourceName('example.com/gpu')).toBe(true);
    expect(isScalarResourceName('hugepages-2Mi')).toBe(true);
    expect(isScalarResourceName('storage')).toBe(false);
    const pod = makePod('p', { containers: [{ resources: { requests: { storage: '1', 'example.com/gpu': '2' } } }] });
    expect(Object.fromEntries(podRequests(pod))).toEqual({ 'example.com/gpu': 2 });
  });
});

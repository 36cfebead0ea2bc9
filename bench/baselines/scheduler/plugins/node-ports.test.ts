// Cases ported from pkg/scheduler/framework/plugins/nodeports/node_ports_test.go (TestNodePorts,
// TestFits). Ports are written "PROTOCOL/hostIP/hostPort" as in newPod there.

import { describe, expect, it } from 'vitest';
import { runFilter } from '../plugin-runner.js';
import { makeNode, makePod } from '../testing.js';
import type { ContainerPort, Pod } from '../types.js';
import { ERR_REASON_NODE_PORTS, nodePorts } from './node-ports.js';

function portPod(name: string, nodeName: string | undefined, ...infos: string[]): Pod {
  const ports: ContainerPort[] = infos.map((info) => {
    const [protocol, hostIP, hostPort] = info.split('/');
    return {
      protocol: protocol as ContainerPort['protocol'] & string,
      hostIP: hostIP ?? '',
      hostPort: Number(hostPort),
    };
  });
  return makePod(name, { ...(nodeName === undefined ? {} : { nodeName }), containers: [{ name: 'c', ports }] });
}

function verdict(pod: Pod, existing: Pod[]): 'skip' | 'fit' | 'unfit' {
  const r = runFilter(nodePorts(), pod, { nodes: [makeNode('m1')], pods: existing });
  if (r.kind !== 'filter') return 'skip';
  const s = r.statuses.m1;
  if (s?.code === 'Success') return 'fit';
  expect(s).toEqual({ code: 'Unschedulable', reasons: [ERR_REASON_NODE_PORTS] });
  return 'unfit';
}

describe('NodePorts (TestNodePorts)', () => {
  it.each<[string, string[], string[], 'skip' | 'fit' | 'unfit']>([
    ['skip filter', [], [], 'skip'],
    ['other port', ['UDP/127.0.0.1/8080'], ['UDP/127.0.0.1/9090'], 'fit'],
    ['same udp port', ['UDP/127.0.0.1/8080'], ['UDP/127.0.0.1/8080'], 'unfit'],
    ['same tcp port', ['TCP/127.0.0.1/8080'], ['TCP/127.0.0.1/8080'], 'unfit'],
    ['different host ip', ['TCP/127.0.0.1/8080'], ['TCP/127.0.0.2/8080'], 'fit'],
    ['different protocol', ['UDP/127.0.0.1/8080'], ['TCP/127.0.0.1/8080'], 'fit'],
    ['second udp port conflict', ['UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'], ['UDP/127.0.0.1/8080'], 'unfit'],
    [
      'first tcp port conflict',
      ['TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'],
      ['TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081'],
      'unfit',
    ],
    ['first tcp port conflict due to 0.0.0.0 hostIP', ['TCP/0.0.0.0/8001'], ['TCP/127.0.0.1/8001'], 'unfit'],
    [
      'TCP hostPort conflict due to 0.0.0.0 hostIP',
      ['TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'],
      ['TCP/127.0.0.1/8001'],
      'unfit',
    ],
    ['second tcp port conflict to 0.0.0.0 hostIP', ['TCP/127.0.0.1/8001'], ['TCP/0.0.0.0/8001'], 'unfit'],
    ['second different protocol', ['UDP/127.0.0.1/8001'], ['TCP/0.0.0.0/8001'], 'fit'],
    [
      'UDP hostPort conflict due to 0.0.0.0 hostIP',
      ['UDP/127.0.0.1/8001'],
      ['TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001'],
      'unfit',
    ],
  ])('%s', (_name, want, used, expected) => {
    expect(verdict(portPod('p', undefined, ...want), [portPod('e', 'm1', ...used)])).toBe(expected);
  });

  it('"non-sidecar initContainer using hostPort" skips; "TCP hostPort conflict from sidecar initContainer" rejects', () => {
    const port = { containerPort: 8001, hostPort: 8001, protocol: 'TCP' as const };
    const existing = [portPod('e', 'm1', 'TCP/0.0.0.0/8001')];
    expect(verdict(makePod('p', { initContainers: [{ ports: [port] }] }), existing)).toBe('skip');
    expect(verdict(makePod('p', { initContainers: [{ restartPolicy: 'Always', ports: [port] }] }), existing)).toBe(
      'unfit',
    );
  });
});

describe('NodePorts (TestFits)', () => {
  it.each<[string, string[], string[], boolean]>([
    ['non-conflicting ports', ['TCP/127.0.0.1/80'], ['TCP/127.0.0.1/9090'], true],
    [
      'multiple non-conflicting ports',
      ['TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'],
      ['TCP/127.0.0.1/9090', 'TCP/127.0.0.1/9191', 'TCP/127.0.1.1/8080'],
      true,
    ],
    ['same ports on different protocols', ['TCP/127.0.0.1/80'], ['UDP/127.0.0.1/80'], true],
    ['conflicting ports', ['TCP/127.0.0.1/80'], ['TCP/127.0.0.1/80'], false],
    [
      'multiple ports, some conflicting',
      ['TCP/127.0.0.1/80', 'TCP/127.0.1.1/80', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/100'],
      ['TCP/127.0.0.1/9090', 'TCP/127.0.1.1/90', 'TCP/127.0.1.1/8080'],
      false,
    ],
  ])('%s', (_name, want, used, fits) => {
    expect(verdict(portPod('p', undefined, ...want), [portPod('e', 'm1', ...used)])).toBe(fits ? 'fit' : 'unfit');
  });
});

import { describe, expect, it } from 'vitest';
import {
  convertFieldLabel,
  convertFieldSelector,
  matchesFieldSelector,
  objectFields,
  supportedFieldLabels,
} from './object-fields.js';
import { FieldSelectorError, parseFieldSelector } from './selector.js';

const pod = { group: '', version: 'v1', kind: 'Pod' };
const event = { group: '', version: 'v1', kind: 'Event' };
const deployment = { group: 'apps', version: 'v1', kind: 'Deployment' };

function errorOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(FieldSelectorError);
    return (err as Error).message;
  }
}

describe('field label conversion (pkg/apis/*/conversion.go, runtime.DefaultMetaV1FieldSelectorConversion)', () => {
  it.each([
    [pod, 'spec.nodeName', 'spec.nodeName', undefined],
    [pod, 'spec.host', 'spec.nodeName', undefined],
    [pod, 'status.podIPs', 'status.podIPs', undefined],
    [pod, 'spec.containers', undefined, 'field label not supported: spec.containers'],
    [event, 'involvedObject.uid', 'involvedObject.uid', undefined],
    [event, 'involvedObject.labels', undefined, 'field label not supported: involvedObject.labels'],
    [{ group: 'events.k8s.io', version: 'v1', kind: 'Event' }, 'regarding.name', 'involvedObject.name', undefined],
    [
      { group: '', version: 'v1', kind: 'Namespace' },
      'metadata.namespace',
      undefined,
      'field label not supported: metadata.namespace',
    ],
    [{ group: '', version: 'v1', kind: 'Node' }, 'spec.unschedulable', 'spec.unschedulable', undefined],
    [deployment, 'metadata.name', 'metadata.name', undefined],
    [
      deployment,
      'status.replicas',
      undefined,
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    [
      { group: 'apps', version: 'v1', kind: 'ReplicaSet' },
      'status.replicas',
      undefined,
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
    [{ group: 'batch', version: 'v1', kind: 'Job' }, 'status.successful', 'status.successful', undefined],
  ] as const)('%o %s', (gvk, label, field, error) => {
    let got: string | undefined;
    expect(
      errorOf(() => {
        got = convertFieldLabel(gvk, label, 'v').field;
      }),
    ).toBe(error);
    expect(got).toBe(field);
  });

  it('lists the labels a kind accepts', () => {
    expect(supportedFieldLabels({ group: '', version: 'v1', kind: 'Secret' })).toEqual([
      'type',
      'metadata.namespace',
      'metadata.name',
    ]);
    expect(supportedFieldLabels({ group: 'x.io', version: 'v1', kind: 'Widget' })).toEqual([
      'metadata.name',
      'metadata.namespace',
    ]);
  });
});

describe('selectable fields of objects', () => {
  const p = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      nodeName: 'n1',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'default',
    },
    status: { phase: 'Running', podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }] },
  };

  it("computes a pod's fields as ToSelectableFields does", () => {
    expect(objectFields(pod, p)).toEqual({
      'metadata.name': 'web',
      'metadata.namespace': 'default',
      'spec.nodeName': 'n1',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': 'default',
      'spec.hostNetwork': 'false',
      'status.phase': 'Running',
      'status.podIP': '10.0.0.5',
      'status.nominatedNodeName': '',
    });
  });

  it('matches the selectors kubectl sends', () => {
    const running = convertFieldSelector(pod, parseFieldSelector('spec.host=n1,status.phase!=Failed'));
    expect(matchesFieldSelector(running, pod, p)).toBe(true);
    expect(matchesFieldSelector(convertFieldSelector(pod, parseFieldSelector('spec.nodeName=n2')), pod, p)).toBe(false);
    const ev = {
      metadata: { name: 'web.1', namespace: 'default' },
      involvedObject: { kind: 'Deployment', name: 'web', namespace: 'default', uid: 'u1' },
      source: {},
      reportingComponent: 'deployment-controller',
    };
    const describe = parseFieldSelector(
      'involvedObject.uid=u1,involvedObject.name=web,involvedObject.namespace=default,involvedObject.kind=Deployment',
    );
    expect(matchesFieldSelector(convertFieldSelector(event, describe), event, ev)).toBe(true);
    expect(objectFields(event, ev).source).toBe('deployment-controller');
  });

  it('leaves metadata.namespace out for cluster-scoped kinds', () => {
    expect(
      objectFields({ group: '', kind: 'Node' }, { metadata: { name: 'n1' }, spec: { unschedulable: true } }),
    ).toEqual({
      'metadata.name': 'n1',
      'spec.unschedulable': 'true',
    });
    expect(objectFields({ group: 'x.io', kind: 'Thing' }, { metadata: { name: 't' } }, false)).toEqual({
      'metadata.name': 't',
    });
    expect(objectFields({ group: 'apps', kind: 'ReplicaSet' }, { metadata: { name: 'r', namespace: 'd' } })).toEqual({
      'metadata.name': 'r',
      'metadata.namespace': 'd',
      'status.replicas': '0',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { protobufBodyToJson } from './decode.js';

const hex = (lines: string[]): Uint8Array => {
  const h = lines.join('');
  return new Uint8Array(h.length / 2).map((_, i) => Number.parseInt(h.slice(i * 2, i * 2 + 2), 16));
};

// Request bodies kubectl v1.32.4 sent (captured with -v=9) to `kubewasm up`.
describe('protobuf bodies of kubectl create job', () => {
  it('kubectl create job job2 --image=busybox -- date', () => {
    const body = hex([
      '6b3873000a0f0a0862617463682f763112034a6f621284010a140a046a6f623212001a0022002a003200380042001262',
      '32600a100a0012001a0022002a00320038004200124c12290a046a6f6232120762757379626f781a04646174652a0042',
      '006a007200800100880100900100a201001a054e65766572320042004a0052005800600068008201008a01009a0100c2',
      '01001a082000280030003a001a002200',
    ]);
    expect(JSON.parse(protobufBodyToJson(body))).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'job2' },
      spec: {
        template: {
          metadata: {},
          spec: {
            containers: [{ name: 'job2', image: 'busybox', command: ['date'], resources: {} }],
            restartPolicy: 'Never',
          },
        },
      },
      status: {},
    });
  });

  it('kubectl create job job3 --from=cronjob/cj2 (the stored, defaulted pod spec, securityContext {})', () => {
    const body = hex([
      '6b3873000a0f0a0862617463682f763112034a6f6212b9020a83010a046a6f623312001a0022002a0032003800420062',
      '2b0a2163726f6e6a6f622e6b756265726e657465732e696f2f696e7374616e746961746512066d616e75616c6a400a07',
      '43726f6e4a6f621a03636a32222465373166303937362d353533642d343237302d396365302d30666637383964363736',
      '30302a0862617463682f7631300112a60132a3010a100a0012001a0022002a00320038004200128e0112460a03636a32',
      '120762757379626f781a04646174652a0042006a142f6465762f7465726d696e6174696f6e2d6c6f677206416c776179',
      '73800100880100900100a2010446696c651a094f6e4661696c757265201e320c436c7573746572466972737442004a00',
      '520058006000680072008201008a01009a011164656661756c742d7363686564756c6572c201001a082000280030003a',
      '001a002200',
    ]);
    const job = JSON.parse(protobufBodyToJson(body)) as Record<string, unknown>;
    expect(job.metadata).toEqual({
      name: 'job3',
      annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' },
      ownerReferences: [
        {
          kind: 'CronJob',
          name: 'cj2',
          uid: 'e71f0976-553d-4270-9ce0-0ff789d67600',
          apiVersion: 'batch/v1',
          controller: true,
        },
      ],
    });
    expect(job.spec).toMatchObject({
      template: { spec: { restartPolicy: 'OnFailure', securityContext: {}, schedulerName: 'default-scheduler' } },
    });
  });
});

describe('protobuf bodies of kubectl autoscale', () => {
  it('kubectl autoscale deployment web --max=5 --cpu-percent=60 (autoscaling/v1)', () => {
    const body = hex([
      '6b3873000a290a0e6175746f7363616c696e672f76311217486f72697a6f6e74616c506f644175746f7363616c657212',
      '3d0a130a0377656212001a0022002a0032003800420012200a1a0a0a4465706c6f796d656e7412037765621a07617070',
      '732f76311805203c1a04180020001a002200',
    ]);
    expect(JSON.parse(protobufBodyToJson(body))).toEqual({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 60,
      },
      status: {},
    });
  });
});

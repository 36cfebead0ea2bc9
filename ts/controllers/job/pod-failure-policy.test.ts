import { describe, expect, it } from 'vitest';
import type { PodFailurePolicy } from '../../api/types/batch/v1.js';
import type { ContainerStatus, Pod } from '../../api/types/core/v1.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';

const terminated = (name: string, exitCode: number): ContainerStatus => ({
  name,
  image: '',
  imageID: '',
  ready: false,
  restartCount: 0,
  state: { terminated: { exitCode } },
});
const failedPod = (statuses: ContainerStatus[], extra: Partial<NonNullable<Pod['status']>> = {}): Pod => ({
  metadata: { namespace: 'default', name: 'mypod' },
  status: { phase: 'Failed', containerStatuses: statuses, ...extra },
});

describe('matchPodFailurePolicy (TestMatchPodFailurePolicy)', () => {
  it('no policy: counted', () => {
    expect(matchPodFailurePolicy(undefined, failedPod([terminated('main-container', 2)]))).toEqual({
      message: undefined,
      countFailed: true,
      action: undefined,
    });
  });

  it('FailJob on exit code In, second rule matching', () => {
    const policy: PodFailurePolicy = {
      rules: [
        { action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } },
        { action: 'FailJob', onExitCodes: { operator: 'In', values: [2] } },
      ],
    };
    expect(matchPodFailurePolicy(policy, failedPod([terminated('main-container', 2)]))).toEqual({
      message:
        'Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1',
      countFailed: true,
      action: 'FailJob',
    });
  });

  it('NotIn: any other non-zero exit code matches; exit code 0 never does', () => {
    const policy: PodFailurePolicy = {
      rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [5, 6, 7] } }],
    };
    expect(matchPodFailurePolicy(policy, failedPod([terminated('main-container', 1)])).message).toBe(
      'Container main-container for pod default/mypod failed with exit code 1 matching FailJob rule at index 0',
    );
    expect(matchPodFailurePolicy(policy, failedPod([terminated('main-container', 6)])).action).toBeUndefined();
    expect(matchPodFailurePolicy(policy, failedPod([terminated('main-container', 0)])).action).toBeUndefined();
  });

  it('containerName restricts the check; init containers are checked after containers', () => {
    const policy: PodFailurePolicy = {
      rules: [{ action: 'FailJob', onExitCodes: { containerName: 'init', operator: 'In', values: [3] } }],
    };
    expect(matchPodFailurePolicy(policy, failedPod([terminated('main', 3)])).action).toBeUndefined();
    const pod = failedPod([terminated('main', 3)], { initContainerStatuses: [terminated('init', 3)] });
    expect(matchPodFailurePolicy(policy, pod).message).toBe(
      'Container init for pod default/mypod failed with exit code 3 matching FailJob rule at index 0',
    );
  });

  it('Ignore on the DisruptionTarget condition: not counted', () => {
    const policy: PodFailurePolicy = {
      rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
    };
    const pod = failedPod([terminated('main', 137)], { conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    expect(matchPodFailurePolicy(policy, pod)).toEqual({ message: undefined, countFailed: false, action: 'Ignore' });
    const notDisrupted = failedPod([terminated('main', 137)], {
      conditions: [{ type: 'DisruptionTarget', status: 'False' }],
    });
    expect(matchPodFailurePolicy(policy, notDisrupted)).toEqual({
      message: undefined,
      countFailed: true,
      action: undefined,
    });
  });

  it('FailJob on a pod condition', () => {
    const policy: PodFailurePolicy = {
      rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }],
    };
    const pod = failedPod([], { conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    expect(matchPodFailurePolicy(policy, pod).message).toBe(
      'Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0',
    );
  });

  it('Count and FailIndex count the failure; the first matching rule wins', () => {
    const policy: PodFailurePolicy = {
      rules: [
        { action: 'Count', onExitCodes: { operator: 'In', values: [1] } },
        { action: 'FailIndex', onExitCodes: { operator: 'In', values: [1, 2] } },
      ],
    };
    expect(matchPodFailurePolicy(policy, failedPod([terminated('c', 1)]))).toEqual({
      message: undefined,
      countFailed: true,
      action: 'Count',
    });
    expect(matchPodFailurePolicy(policy, failedPod([terminated('c', 2)]))).toEqual({
      message: undefined,
      countFailed: true,
      action: 'FailIndex',
    });
  });

  it('a container that has not terminated matches no exit code rule', () => {
    const policy: PodFailurePolicy = {
      rules: [{ action: 'FailJob', onExitCodes: { operator: 'NotIn', values: [0] } }],
    };
    const running: ContainerStatus = {
      name: 'c',
      image: '',
      imageID: '',
      ready: true,
      restartCount: 0,
      state: { running: {} },
    };
    expect(matchPodFailurePolicy(policy, failedPod([running])).action).toBeUndefined();
  });
});

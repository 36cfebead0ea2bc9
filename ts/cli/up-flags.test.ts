import { describe, expect, it } from 'vitest';
import { parseFlags } from './flags.js';
import { CONTROLLER_MANAGER_FLAG_SPEC, controllerManagerOptions } from './up-flags.js';

describe('controllerManagerOptions', () => {
  const options = (...args: string[]) => controllerManagerOptions(parseFlags(args, CONTROLLER_MANAGER_FLAG_SPEC));

  it('defaults --controllers to *, and resolves aliases', () => {
    expect(options()).toEqual({ controllers: ['*'] });
    expect(options('--controllers', '*,-garbagecollector,root-ca-cert-publisher')).toEqual({
      controllers: ['*', '-garbage-collector-controller', 'root-ca-certificate-publisher-controller'],
    });
    expect(options('--resource-quota-sync-period', '30s')).toEqual({
      controllers: ['*'],
      resourceQuotaSyncPeriodMs: 30_000,
    });
  });

  it('refuses a controller it does not know, as kube-controller-manager does', () => {
    expect(() => options('--controllers', '*,-deployment-controller')).toThrow(
      '"deployment-controller" is not in the list of known controllers',
    );
  });
});

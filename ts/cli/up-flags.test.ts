import { describe, expect, it } from 'vitest';
import { parseFlags } from './flags.js';
import { CONTROLLER_MANAGER_FLAG_SPEC, CONTROLLER_MANAGER_FLAG_USAGE, controllerManagerOptions } from './up-flags.js';

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

  // A name that is no 1.32 controller and no alias of one (deployment-controller is one: it is
  // accepted below, as kube-controller-manager accepts it).
  it('refuses a controller it does not know, as kube-controller-manager does', () => {
    expect(() => options('--controllers', '*,-deployment-controler')).toThrow(
      '"deployment-controler" is not in the list of known controllers',
    );
  });

  it('takes every kube-controller-manager 1.32 controller, by name or alias, kubeadm’s flag included', () => {
    expect(options('--controllers', '*,bootstrapsigner,tokencleaner')).toEqual({
      controllers: ['*', 'bootstrap-signer-controller', 'token-cleaner-controller'],
    });
    expect(options('--controllers', '*,-deployment-controller')).toEqual({
      controllers: ['*', '-deployment-controller'],
    });
    expect(options('--controllers', 'selinux-warning-controller,-podgc,svm')).toEqual({
      controllers: [
        'selinux-warning-controller',
        '-pod-garbage-collector-controller',
        'storage-version-migrator-controller',
      ],
    });
  });

  it('takes a --resource-quota-sync-period of 0 or less, which turns the periodic resync off', () => {
    expect(options('--resource-quota-sync-period', '0')).toEqual({ controllers: ['*'], resourceQuotaSyncPeriodMs: 0 });
    expect(options('--resource-quota-sync-period', '-1m')).toEqual({
      controllers: ['*'],
      resourceQuotaSyncPeriodMs: -60_000,
    });
    expect(() => options('--resource-quota-sync-period', 'soon')).toThrow('time: invalid duration "soon"');
  });

  it('lists every controller and the disabled-by-default ones in the usage', () => {
    expect(CONTROLLER_MANAGER_FLAG_USAGE).toContain('bootstrap-signer-controller,');
    expect(CONTROLLER_MANAGER_FLAG_USAGE.replace(/\s+/g, ' ')).toContain(
      'disabled by default: bootstrap-signer-controller, selinux-warning-controller, token-cleaner-controller',
    );
    for (const line of CONTROLLER_MANAGER_FLAG_USAGE.split('\n')) expect(line.length).toBeLessThanOrEqual(110);
  });

  it('takes --cluster-cidr as kube-controller-manager validates it: one CIDR, or one of each family', () => {
    expect(options('--cluster-cidr', '10.100.0.0/16')).toEqual({ controllers: ['*'], clusterCIDR: '10.100.0.0/16' });
    expect(options('--cluster-cidr', '10.100.0.0/16, fd00::/48')).toEqual({
      controllers: ['*'],
      clusterCIDR: '10.100.0.0/16,fd00::/48',
    });
    expect(() => options('--cluster-cidr', '10.100.0.0')).toThrow('--cluster-cidr: invalid CIDR address: 10.100.0.0');
    expect(() => options('--cluster-cidr', '10.1.0.0/16,10.2.0.0/16')).toThrow(
      'len of ClusterCIDRs==2 and they are not configured as dual stack',
    );
    expect(() => options('--cluster-cidr', '10.1.0.0/16,fd00::/48,fd01::/48')).toThrow(
      'length of clusterCIDRs is:3 more than max allowed of 2',
    );
  });
});

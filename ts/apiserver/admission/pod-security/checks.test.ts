/**
 * Every baseline and restricted check, through the registry as admission runs them: the exact
 * `reason (detail)` text each produces, what each allows, and which revision applies at which
 * policy version.
 */
import { describe, expect, it } from 'vitest';
import { aggregateCheckResults, forbiddenDetail, forbiddenReason } from './check.js';
import { LATEST, type Level, parseVersion } from './levels.js';
import type { Container, PodMetadata, PodSpec } from './pod-spec.js';
import { newEvaluator } from './registry.js';

const evaluator = newEvaluator();

/** The aggregated `reason (detail), …` at `level:version`; '' when allowed. */
function detail(level: Level, version: string, spec: PodSpec, meta: PodMetadata = {}): string {
  const v = version === 'latest' ? LATEST : parseVersion(version).version;
  const r = aggregateCheckResults(evaluator.evaluatePod({ level, version: v }, meta, spec));
  expect(r.allowed).toBe(r.forbiddenReasons.length === 0);
  return forbiddenDetail(r);
}

// A container restricted allows.
const ok = (name = 'c', extra: Container['securityContext'] = {}): Container => ({
  name,
  image: 'nginx',
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
    ...extra,
  },
});
const bare = (name = 'c'): Container => ({ name, image: 'nginx' });

describe('baseline checks', () => {
  const cases: Array<[string, PodSpec, PodMetadata, string]> = [
    [
      'AppArmor annotations',
      { containers: [bare('a'), bare('b')] },
      {
        annotations: {
          'container.apparmor.security.beta.kubernetes.io/b': 'unconfined',
          'container.apparmor.security.beta.kubernetes.io/a': 'runtime/default',
        },
      },
      'forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/b="unconfined"")',
    ],
    [
      'AppArmor fields and annotations',
      {
        securityContext: { appArmorProfile: { type: 'Unconfined' } },
        containers: [{ ...bare(), securityContext: { appArmorProfile: { type: 'Unconfined' } } }],
      },
      { annotations: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined' } },
      'forbidden AppArmor profiles (pod and container "c" and annotation must not set AppArmor profile type to "Unconfined", "container.apparmor.security.beta.kubernetes.io/c="unconfined"")',
    ],
    [
      'capabilities beyond the default set',
      {
        containers: [
          { ...bare('c1'), securityContext: { capabilities: { add: ['SYS_ADMIN', 'CHOWN', 'NET_ADMIN'] } } },
          { ...bare('c2'), securityContext: { capabilities: { add: ['NET_RAW', 'SYS_ADMIN'] } } },
          { ...bare('c3'), securityContext: { capabilities: { add: ['KILL'] } } },
        ],
      },
      {},
      'non-default capabilities (containers "c1", "c2" must not include "NET_ADMIN", "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)',
    ],
    [
      'host namespaces',
      { hostIPC: true, hostPID: true, hostNetwork: true, containers: [bare()] },
      {},
      'host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)',
    ],
    [
      'hostPath volumes',
      {
        containers: [bare()],
        volumes: [
          { name: 'h1', hostPath: { path: '/' } },
          { name: 'e', emptyDir: {} },
          { name: 'h2', hostPath: { path: '/etc' } },
        ],
      },
      {},
      'hostPath volumes (volumes "h1", "h2")',
    ],
    [
      'one host port',
      { containers: [{ ...bare(), ports: [{ hostPort: 80 }, { hostPort: 0 }] }] },
      {},
      'hostPort (container "c" uses hostPort 80)',
    ],
    [
      'host ports in init and ephemeral containers',
      {
        initContainers: [{ ...bare('i'), ports: [{ hostPort: 8080 }] }],
        containers: [bare()],
        ephemeralContainers: [{ ...bare('e'), ports: [{ hostPort: 80 }, { hostPort: 8080 }] }],
      },
      {},
      'hostPort (containers "i", "e" use hostPorts 80, 8080)',
    ],
    [
      'privileged containers',
      {
        initContainers: [{ ...bare('i'), securityContext: { privileged: true } }],
        containers: [
          { ...bare('c'), securityContext: { privileged: true } },
          { ...bare('d'), securityContext: { privileged: false } },
        ],
      },
      {},
      'privileged (containers "i", "c" must not set securityContext.privileged=true)',
    ],
    [
      'an unmasked /proc',
      {
        containers: [
          { ...bare(), securityContext: { procMount: 'Unmasked' } },
          { ...bare('d'), securityContext: { procMount: 'Default' } },
        ],
      },
      {},
      'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
    ],
    [
      'SELinux options',
      {
        securityContext: { seLinuxOptions: { type: 'spc_t' } },
        containers: [
          {
            ...bare(),
            securityContext: { seLinuxOptions: { user: 'u', role: 'r', type: 'container_t', level: 's0' } },
          },
          { ...bare('d'), securityContext: { seLinuxOptions: { type: 'unconfined_t' } } },
        ],
      },
      {},
      'seLinuxOptions (pod and containers "c", "d" set forbidden securityContext.seLinuxOptions: types "spc_t", "unconfined_t"; user may not be set; role may not be set)',
    ],
    [
      'an Unconfined seccomp profile',
      {
        securityContext: { seccompProfile: { type: 'Unconfined' } },
        containers: [{ ...bare(), securityContext: { seccompProfile: { type: 'Unconfined' } } }],
      },
      {},
      'seccompProfile (pod and container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
    ],
    [
      'unsafe sysctls',
      {
        securityContext: {
          sysctls: [{ name: 'kernel.msgmax' }, { name: 'net.ipv4.tcp_rmem' }, { name: 'net.core.somaxconn' }],
        },
        containers: [bare()],
      },
      {},
      'forbidden sysctls (kernel.msgmax, net.core.somaxconn)',
    ],
    [
      'Windows HostProcess',
      {
        securityContext: { windowsOptions: { hostProcess: true } },
        containers: [{ ...bare(), securityContext: { windowsOptions: { hostProcess: true } } }],
      },
      {},
      'hostProcess (pod and container "c" must not set securityContext.windowsOptions.hostProcess=true)',
    ],
  ];

  it.each(cases)('refuses %s', (_name, spec, meta, want) => {
    expect(detail('baseline', 'latest', spec, meta)).toBe(want);
  });

  it('allows what baseline allows', () => {
    const spec: PodSpec = {
      securityContext: {
        seccompProfile: { type: 'RuntimeDefault' },
        appArmorProfile: { type: 'Localhost' },
        seLinuxOptions: { type: 'container_init_t', level: 's0:c1' },
        sysctls: [{ name: 'net.ipv4.ip_local_port_range' }, { name: 'net.ipv4.tcp_keepalive_time' }],
        windowsOptions: { hostProcess: false },
      },
      containers: [
        {
          ...bare(),
          ports: [{ hostPort: 0 }],
          securityContext: {
            capabilities: { add: ['CHOWN', 'NET_BIND_SERVICE', 'SYS_CHROOT'] },
            privileged: false,
            procMount: 'Default',
            seccompProfile: { type: 'Localhost' },
            appArmorProfile: { type: 'RuntimeDefault' },
            runAsUser: 0,
          },
        },
      ],
      volumes: [{ name: 'n', nfs: { server: 's', path: '/' } }],
    };
    const meta = {
      annotations: {
        'container.apparmor.security.beta.kubernetes.io/c': 'localhost/profile',
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
      },
    };
    expect(detail('baseline', 'latest', spec, meta)).toBe('');
    expect(detail('privileged', 'latest', { hostNetwork: true, containers: [bare()] })).toBe('');
  });
});

describe('restricted checks', () => {
  const cases: Array<[string, PodSpec, string]> = [
    [
      'privilege escalation not turned off',
      {
        initContainers: [{ ...ok('i'), securityContext: { ...ok().securityContext, allowPrivilegeEscalation: true } }],
        containers: [
          { ...ok('c'), securityContext: { ...ok().securityContext, allowPrivilegeEscalation: null } },
          ok('d'),
        ],
      },
      'allowPrivilegeEscalation != false (containers "i", "c" must set securityContext.allowPrivilegeEscalation=false)',
    ],
    [
      'capabilities not dropped, others added',
      {
        containers: [
          ok('a', { capabilities: { drop: ['NET_RAW'], add: ['SYS_TIME', 'NET_BIND_SERVICE'] } }),
          ok('b', { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }),
          { ...ok('c'), securityContext: { ...ok().securityContext, capabilities: null } },
        ],
      },
      'unrestricted capabilities (containers "a", "c" must set securityContext.capabilities.drop=["ALL"]; container "a" must not include "SYS_TIME" in securityContext.capabilities.add)',
    ],
    [
      'restricted volume types (and not hostPath volumes twice)',
      {
        containers: [ok()],
        volumes: [
          { name: 'h', hostPath: { path: '/' } },
          { name: 'cm', configMap: { name: 'x' } },
          { name: 'n', nfs: { server: 's', path: '/' } },
          { name: 'pvc', persistentVolumeClaim: { claimName: 'x' } },
          { name: 'img', image: { reference: 'x' } },
        ],
      },
      'restricted volume types (volumes "h", "n", "img" use restricted volume types "hostPath", "nfs", "unknown")',
    ],
    [
      'runAsNonRoot set to false',
      {
        securityContext: { runAsNonRoot: false },
        containers: [ok('c', { runAsNonRoot: false }), ok('d', { runAsNonRoot: null })],
      },
      'runAsNonRoot != true (pod and container "c" must not set securityContext.runAsNonRoot=false)',
    ],
    [
      'runAsNonRoot missing',
      { containers: [ok('c', { runAsNonRoot: null }), ok('d')] },
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)',
    ],
    [
      'runAsUser 0',
      { securityContext: { runAsUser: 0 }, containers: [ok('c', { runAsUser: 0 }), ok('d', { runAsUser: 1000 })] },
      'runAsUser=0 (pod and container "c" must not set runAsUser=0)',
    ],
    [
      'seccomp unset',
      { containers: [ok('c', { seccompProfile: null }), ok('d', { seccompProfile: null })] },
      'seccompProfile (pod or containers "c", "d" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ],
    [
      'seccomp Unconfined',
      { securityContext: { seccompProfile: { type: 'Unconfined' } }, containers: [ok('c', { seccompProfile: null })] },
      'seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")',
    ],
  ];

  it.each(cases)('refuses %s', (_name, spec, want) => {
    expect(detail('restricted', 'latest', spec)).toBe(want);
  });

  it('allows a pod-level runAsNonRoot and seccomp profile', () => {
    const spec: PodSpec = {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'Localhost' } },
      containers: [ok('c', { runAsNonRoot: null, seccompProfile: null })],
      volumes: [
        { name: 'p', projected: {} },
        { name: 's', secret: {} },
        { name: 'e', ephemeral: {} },
      ],
    };
    expect(detail('restricted', 'latest', spec)).toBe('');
  });

  it('words what `kubectl run` makes in a restricted namespace as Kubernetes does', () => {
    expect(detail('restricted', 'latest', { containers: [bare('nginx')] })).toBe(
      'allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('lists baseline violations first, then restricted, each by check ID', () => {
    const spec: PodSpec = {
      hostNetwork: true,
      containers: [{ ...bare(), securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } } }],
      volumes: [{ name: 'h', hostPath: { path: '/' } }],
    };
    const r = aggregateCheckResults(evaluator.evaluatePod({ level: 'restricted', version: LATEST }, {}, spec));
    expect(forbiddenReason(r)).toBe(
      'host namespaces, privileged, allowPrivilegeEscalation != false, unrestricted capabilities, restricted volume types, runAsNonRoot != true, seccompProfile',
    );
  });
});

describe('policy versions', () => {
  const capsAdded = { containers: [{ ...bare(), securityContext: { capabilities: { add: ['SYS_ADMIN'] } } }] };

  it('restricted before v1.22 checks capabilities as baseline does', () => {
    expect(detail('restricted', 'v1.21', capsAdded)).toContain(
      'non-default capabilities (container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add)',
    );
    expect(detail('restricted', 'v1.21', capsAdded)).not.toContain('unrestricted capabilities');
    expect(detail('restricted', 'v1.22', capsAdded)).toContain(
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add)',
    );
    expect(detail('restricted', 'v1.22', capsAdded)).not.toContain('non-default capabilities');
  });

  it('runAsUser from v1.23, allowPrivilegeEscalation from v1.8, seccomp required from v1.19', () => {
    const spec = { containers: [ok('c', { runAsUser: 0 })] };
    expect(detail('restricted', 'v1.22', spec)).toBe('');
    expect(detail('restricted', 'v1.23', spec)).toBe('runAsUser=0 (container "c" must not set runAsUser=0)');
    const escalating = { containers: [ok('c', { allowPrivilegeEscalation: true })] };
    expect(detail('restricted', 'v1.7', escalating)).toBe('');
    expect(detail('restricted', 'v1.8', escalating)).not.toBe('');
    const noSeccomp = { containers: [ok('c', { seccompProfile: null })] };
    expect(detail('restricted', 'v1.18', noSeccomp)).toBe('');
    expect(detail('restricted', 'v1.19', noSeccomp)).not.toBe('');
  });

  it('seccomp annotations before v1.19, fields after', () => {
    const meta = {
      annotations: {
        'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
        'container.seccomp.security.alpha.kubernetes.io/c': 'docker/default',
        'container.seccomp.security.alpha.kubernetes.io/d': 'localhost/x',
        'container.seccomp.security.alpha.kubernetes.io/e': '',
      },
    };
    const spec = { containers: [bare('c'), bare('d'), bare('e')] };
    expect(detail('baseline', 'v1.18', spec, meta)).toBe(
      'seccompProfile (forbidden annotations container.seccomp.security.alpha.kubernetes.io/e="", seccomp.security.alpha.kubernetes.io/pod="unconfined")',
    );
    expect(detail('baseline', 'v1.19', spec, meta)).toBe('');
  });

  it.each([
    ['net.ipv4.ip_local_reserved_ports', 'v1.26', 'v1.27'],
    ['net.ipv4.tcp_fin_timeout', 'v1.28', 'v1.29'],
    ['net.ipv4.tcp_wmem', 'v1.31', 'v1.32'],
  ])('sysctl %s is safe from %s+1', (name, before, from) => {
    const spec = { securityContext: { sysctls: [{ name }] }, containers: [bare()] };
    expect(detail('baseline', before, spec)).toBe(`forbidden sysctls (${name})`);
    expect(detail('baseline', from, spec)).toBe('');
  });

  it('container_engine_t from v1.31', () => {
    const spec = { containers: [{ ...bare(), securityContext: { seLinuxOptions: { type: 'container_engine_t' } } }] };
    expect(detail('baseline', 'v1.30', spec)).toBe(
      'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "container_engine_t")',
    );
    expect(detail('baseline', 'v1.31', spec)).toBe('');
  });

  it('Windows pods skip the Linux-only restricted checks from v1.25', () => {
    const spec: PodSpec = { os: { name: 'windows' }, containers: [bare()] };
    expect(detail('restricted', 'v1.25', spec)).toBe(
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)',
    );
    expect(detail('restricted', 'v1.24', spec)).toContain('allowPrivilegeEscalation != false');
  });

  it('a version newer than the newest check evaluates as v1.32', () => {
    expect(evaluator.maxMinor).toBe(32);
    const spec = { securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem' }] }, containers: [bare()] };
    expect(detail('baseline', 'v1.40', spec)).toBe('');
    expect(detail('baseline', 'latest', spec)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/client.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import { RESOURCES } from '../../client/resources.js';
import { harness } from '../../client/testing/harness.js';
import { inProcessTransport } from '../../client/transport.js';
import { discardLogger, type Logger } from '../../sim/logger.js';
import type { ControllerContext } from './context.js';
import type { Controller } from './controller.js';
import {
  ControllerDescriptors,
  ControllerManager,
  ControllersFlagError,
  type InitFunc,
  isControllerEnabled,
  parseControllers,
  splitControllersFlag,
} from './manager.js';

// k8s.io/controller-manager app/helper_test.go (v0.32): TestIsControllerEnabled
describe('isControllerEnabled', () => {
  const disabled = new Set(['delta', 'echo']);
  it.each([
    ['on by name', 'bravo', ['alpha', 'bravo', '-charlie'], true],
    ['off by name', 'charlie', ['alpha', 'bravo', '-charlie'], false],
    ['on by default', 'alpha', ['*'], true],
    ['off by default', 'delta', ['*'], false],
    ['on by star, not off by name', 'alpha', ['*', '-charlie'], true],
    ['off by name with star', 'charlie', ['*', '-charlie'], false],
    ['off by default implicit, no star', 'foxtrot', ['alpha', 'bravo', '-charlie'], false],
  ])('%s', (_name, controller, controllers, expected) => {
    expect(isControllerEnabled(controller, disabled, controllers)).toBe(expected);
  });

  it('lets the first explicit choice win, and turns on a disabled-by-default controller by name', () => {
    expect(isControllerEnabled('delta', disabled, ['*', 'delta'])).toBe(true);
    expect(isControllerEnabled('alpha', disabled, ['-alpha', 'alpha'])).toBe(false);
    expect(isControllerEnabled('alpha', disabled, [])).toBe(false);
  });
});

const noop: InitFunc = async () => undefined;
/** generic_test.go's getAllControllers and getControllerAliases, green-controller off by default. */
const colours = () =>
  new ControllerDescriptors([
    { name: 'red-controller', aliases: ['crimson-controller', 'pink-controller'], init: noop },
    { name: 'green-controller', disabledByDefault: true, init: noop },
    { name: 'blue-controller', aliases: ['ultramarine-controller'], init: noop },
  ]);

// k8s.io/controller-manager options/generic_test.go (v0.32)
describe('parseControllers (Validate + ApplyTo)', () => {
  it.each([
    ['recognizes empty controllers', [], []],
    ['no controllers defined', ['*'], ['*']],
    [
      'recognizes valid controllers',
      ['*', '-red-controller', 'blue-controller'],
      ['*', '-red-controller', 'blue-controller'],
    ],
    ['recognizes disabled controller', ['green-controller'], ['green-controller']],
    [
      'recognized aliased controller',
      ['ultramarine-controller', '-pink-controller'],
      ['blue-controller', '-red-controller'],
    ],
    [
      'resolves aliases',
      ['green-controller', '-crimson-controller', 'ultramarine-controller', '-pink-controller'],
      ['green-controller', '-red-controller', 'blue-controller', '-red-controller'],
    ],
  ])('%s', (_name, values, want) => {
    expect(parseControllers(values, colours())).toEqual(want);
  });

  it('does not recognize a controller, with or without its -', () => {
    expect(() => parseControllers(['crimson-controller', 'grey-controller'], colours())).toThrow(
      '"grey-controller" is not in the list of known controllers',
    );
    expect(() => parseControllers(['-grey-controller'], colours())).toThrow(
      '"grey-controller" is not in the list of known controllers',
    );
    try {
      parseControllers(['*', 'grey', '-mauve'], colours());
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ControllersFlagError);
      expect((err as Error).message).toBe(
        '["grey" is not in the list of known controllers, "mauve" is not in the list of known controllers]',
      );
    }
  });

  it('says a name refused twice once, without brackets, as utilerrors.NewAggregate does', () => {
    try {
      parseControllers(['grey-controller', '-grey-controller', 'mauve', 'grey-controller'], colours());
      expect.unreachable();
    } catch (err) {
      expect((err as ControllersFlagError).errors).toHaveLength(4);
      expect((err as Error).message).toBe(
        '["grey-controller" is not in the list of known controllers, "mauve" is not in the list of known controllers]',
      );
    }
    expect(() => parseControllers(['-grey-controller', 'grey-controller'], colours())).toThrow(
      /^"grey-controller" is not in the list of known controllers$/,
    );
  });

  it('splits the flag as pflag’s StringSlice does', () => {
    expect(splitControllersFlag('*,-red-controller')).toEqual(['*', '-red-controller']);
    expect(splitControllersFlag('')).toEqual([]);
  });
});

describe('ControllerDescriptors', () => {
  it('lists the known and the disabled-by-default controllers sorted, and prints the flag’s help', () => {
    const d = colours();
    expect(d.knownControllers()).toEqual(['blue-controller', 'green-controller', 'red-controller']);
    expect(d.controllersDisabledByDefault()).toEqual(['green-controller']);
    expect(d.flagUsage()).toBe(
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.\n" +
        'All controllers: blue-controller, green-controller, red-controller\nDisabled-by-default controllers: green-controller',
    );
  });

  it('refuses a name registered twice, a duplicate alias, and an empty name', () => {
    const d = colours();
    expect(() => d.register({ name: 'red-controller', init: noop })).toThrow(
      'controller name "red-controller" was registered twice',
    );
    expect(() => d.register({ name: 'orange-controller', aliases: ['pink-controller'], init: noop })).toThrow(
      'controller "orange-controller" has a duplicate alias "pink-controller"',
    );
    expect(() => d.register({ name: '', init: noop })).toThrow('received controller without a name for a registration');
    // NewControllerDescriptors: "alias %q conflicts with a controller name", either way round.
    expect(() => d.register({ name: 'crimson-controller', init: noop })).toThrow(
      'alias "crimson-controller" conflicts with a controller name',
    );
    expect(() => d.register({ name: 'violet-controller', aliases: ['blue-controller'], init: noop })).toThrow(
      'alias "blue-controller" conflicts with a controller name',
    );
  });
});

describe('ControllerManager', () => {
  /** A controller that watches namespaces and records its life. */
  function recording(log: string[]): InitFunc {
    return async (ctx, name) => {
      const namespaces = ctx.informerFactory.informerFor(RESOURCES.namespaces);
      const reg = namespaces.addEventHandler({});
      log.push(`init ${name}`);
      const c: Controller = {
        name,
        async run() {
          await reg.synced();
          log.push(`run ${name} synced=${reg.hasSynced()}`);
        },
        async stop() {
          namespaces.removeEventHandler(reg);
          log.push(`stop ${name}`);
        },
      };
      return c;
    };
  }

  async function context(controllers: string[], lines: string[]): Promise<ControllerContext> {
    const h = await harness('in-process');
    const logger = (prefix: string): Logger => ({
      info: (message, fields) => lines.push(`${prefix}${message} ${JSON.stringify(fields ?? {})}`),
      error: (err, message) => lines.push(`${prefix}${message}: ${String(err)}`),
      withName: (name) => logger(`${name}: `),
    });
    return {
      informerFactory: new SharedInformerFactory(h.client, { clock: h.server.clock }),
      clientBuilder: { client: async () => h.client },
      clock: h.server.clock,
      logger: logger(''),
      options: { controllers },
      resources: [],
    };
  }

  it('builds the enabled controllers, starts the informers they asked for, runs them; stops them last first', async () => {
    const log: string[] = [];
    const lines: string[] = [];
    const descriptors = new ControllerDescriptors([
      { name: 'alpha-controller', init: recording(log) },
      { name: 'bravo-controller', init: recording(log) },
      { name: 'charlie-controller', disabledByDefault: true, init: recording(log) },
      { name: 'delta-controller', init: noop },
    ]);
    const ctx = await context(['*', '-bravo-controller'], lines);
    const manager = new ControllerManager(descriptors, ctx);
    expect(await manager.start()).toEqual(['alpha-controller']);
    await manager.waitForRunning();
    expect(log).toEqual(['init alpha-controller', 'run alpha-controller synced=true']);
    // StartController logs "Started controller" as soon as the init returned (before any cache syncs).
    expect(lines).toEqual([
      'Starting controller {"controller":"alpha-controller"}',
      'Started controller {"controller":"alpha-controller"}',
      'Warning: controller is disabled {"controller":"bravo-controller"}',
      'Warning: controller is disabled {"controller":"charlie-controller"}',
      'Starting controller {"controller":"delta-controller"}',
      'Warning: skipping controller {"controller":"delta-controller"}',
    ]);
    await manager.stop();
    expect(log.at(-1)).toBe('stop alpha-controller');
    await ctx.informerFactory.shutdown();
  });

  it('turns on a disabled-by-default controller named in --controllers', async () => {
    const log: string[] = [];
    const descriptors = new ControllerDescriptors([
      { name: 'alpha-controller', init: recording(log) },
      { name: 'charlie-controller', disabledByDefault: true, init: recording(log) },
    ]);
    const ctx = await context(['charlie-controller'], []);
    const manager = new ControllerManager(descriptors, ctx);
    expect(await manager.start()).toEqual(['charlie-controller']);
    await manager.stop();
    await ctx.informerFactory.shutdown();
  });

  it('skips a known controller without an init, as one whose init did not start it', async () => {
    const lines: string[] = [];
    const ctx = await context(['*'], lines);
    const manager = new ControllerManager(new ControllerDescriptors([{ name: 'echo-controller' }]), ctx);
    expect(await manager.start()).toEqual([]);
    expect(lines).toEqual([
      'Starting controller {"controller":"echo-controller"}',
      'Warning: skipping controller {"controller":"echo-controller"}',
    ]);
    await ctx.informerFactory.shutdown();
  });

  it('resolves start() without waiting for a cache that never syncs', async () => {
    const h = await harness('in-process');
    // An informer whose identity may not list: its cache never syncs.
    const ctx: ControllerContext = {
      informerFactory: new SharedInformerFactory(createClient(inProcessTransport(h.server.api, 'nobody')), {
        clock: h.server.clock,
      }),
      clientBuilder: { client: async () => h.client },
      clock: h.server.clock,
      logger: discardLogger,
      options: { controllers: ['*'] },
      resources: [],
    };
    const log: string[] = [];
    const manager = new ControllerManager(
      new ControllerDescriptors([{ name: 'alpha-controller', init: recording(log) }]),
      ctx,
    );
    expect(await manager.start()).toEqual(['alpha-controller']);
    expect(log).toEqual(['init alpha-controller']);
    await manager.stop();
    await ctx.informerFactory.shutdown();
  });

  it('rejects start() when an init rejects, logging it and stopping the controllers built before', async () => {
    const log: string[] = [];
    const lines: string[] = [];
    const broken = new Error('no client');
    const descriptors = new ControllerDescriptors([
      { name: 'alpha-controller', init: recording(log) },
      {
        name: 'bravo-controller',
        init: async () => {
          throw broken;
        },
      },
      { name: 'charlie-controller', init: recording(log) },
    ]);
    const ctx = await context(['*'], lines);
    const manager = new ControllerManager(descriptors, ctx);
    await expect(manager.start()).rejects.toBe(broken);
    expect(lines).toContain('Error starting controller: Error: no client');
    // alpha was built, then stopped; charlie never built; nothing runs.
    expect(log).toEqual(['init alpha-controller', 'stop alpha-controller']);
    await ctx.informerFactory.shutdown();
  });

  it('logs a run() that rejects and keeps the others running', async () => {
    const log: string[] = [];
    const lines: string[] = [];
    const descriptors = new ControllerDescriptors([
      {
        name: 'alpha-controller',
        init: async (_ctx, name) => ({
          name,
          run: async () => {
            throw new Error('lost its queue');
          },
          stop: async () => {},
        }),
      },
      { name: 'bravo-controller', init: recording(log) },
    ]);
    const ctx = await context(['*'], lines);
    const manager = new ControllerManager(descriptors, ctx);
    expect(await manager.start()).toEqual(['alpha-controller', 'bravo-controller']);
    await manager.waitForRunning();
    expect(lines).toContain('Error running controller: Error: lost its queue');
    expect(log).toContain('run bravo-controller synced=true');
    await manager.stop();
    await ctx.informerFactory.shutdown();
  });

  it('refuses a second start()', async () => {
    const log: string[] = [];
    const ctx = await context(['*'], []);
    const manager = new ControllerManager(
      new ControllerDescriptors([{ name: 'alpha-controller', init: recording(log) }]),
      ctx,
    );
    await manager.start();
    await expect(manager.start()).rejects.toThrow('the controller manager has already been started');
    expect(log.filter((l) => l.startsWith('init'))).toEqual(['init alpha-controller']);
    await manager.stop();
    await ctx.informerFactory.shutdown();
  });
});

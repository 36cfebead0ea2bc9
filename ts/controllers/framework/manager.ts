/**
 * The controller manager's registry and start-up, as kube-controller-manager 1.32 has them
 * (cmd/kube-controller-manager/app/controller_descriptor.go and controllermanager.go
 * StartControllers; k8s.io/controller-manager options/generic.go and app/helper.go): each
 * controller registered under its name (names.ts) with its aliases and whether it is off by
 * default; `--controllers` validated and its aliases resolved exactly as kube-controller-manager
 * does; the enabled ones built on one ControllerContext, then the shared informers started, then
 * every controller set running — start() does not wait for their caches, as StartControllers does
 * not (one informer that never syncs, a 403 on one resource, must not hold the others back).
 *
 *   const descriptors = new ControllerDescriptors([namespaceDescriptor, …]);
 *   const manager = new ControllerManager(descriptors, { …ctx, options: { controllers: parseControllers(['*', '-foo'], descriptors) } });
 *   await manager.start();                       // built, informers started, running
 *   await manager.waitForRunning(['serviceaccount-controller']);   // its first pass done
 *   …  await manager.stop();
 *
 * Leader election is the caller's (ts/cluster/controller-manager.ts): start() once this process
 * leads, stop() when the lease is lost.
 */
import { goQuote } from '../../api/go-format.js';
import { aggregateMessage } from './aggregate-errors.js';
import type { ControllerContext } from './context.js';
import type { Controller } from './controller.js';

/** InitFunc: builds the controller on the context (its informers asked for, handlers added); undefined skips it. */
export type InitFunc = (ctx: ControllerContext, controllerName: string) => Promise<Controller | undefined>;

/** ControllerDescriptor: how one controller is known and built. */
export interface ControllerDescriptor {
  readonly name: string;
  /** Names it was known by before (GetAliases: kept for backwards compatibility, never removed). */
  readonly aliases?: readonly string[];
  /** IsDisabledByDefault: `*` does not turn it on; only its name does. */
  readonly disabledByDefault?: boolean;
  /** How it is built; none for a controller kubewasm does not run yet (known to --controllers, skipped at start). */
  readonly init?: InitFunc;
}

/**
 * The registry (NewControllerDescriptors' register): names and aliases unique, no alias a name.
 * Difference: a descriptor may have no init (register panics on one), for the 1.32 controllers
 * kubewasm does not run yet.
 */
export class ControllerDescriptors {
  private readonly byName = new Map<string, ControllerDescriptor>();
  private readonly aliases = new Map<string, string>();

  constructor(descriptors: readonly ControllerDescriptor[] = []) {
    for (const d of descriptors) this.register(d);
  }

  register(descriptor: ControllerDescriptor): void {
    const { name } = descriptor;
    if (name === '') throw new Error('received controller without a name for a registration');
    if (this.byName.has(name)) throw new Error(`controller name ${goQuote(name)} was registered twice`);
    if (this.aliases.has(name)) throw new Error(`alias ${goQuote(name)} conflicts with a controller name`);
    for (const alias of descriptor.aliases ?? []) {
      if (this.aliases.has(alias))
        throw new Error(`controller ${goQuote(name)} has a duplicate alias ${goQuote(alias)}`);
      if (this.byName.has(alias) || alias === name)
        throw new Error(`alias ${goQuote(alias)} conflicts with a controller name`);
    }
    for (const alias of descriptor.aliases ?? []) this.aliases.set(alias, name);
    this.byName.set(name, descriptor);
  }

  /** In registration order. */
  all(): ControllerDescriptor[] {
    return [...this.byName.values()];
  }

  get(name: string): ControllerDescriptor | undefined {
    return this.byName.get(name);
  }

  /** KnownControllers: every name, sorted. */
  knownControllers(): string[] {
    return [...this.byName.keys()].sort();
  }

  /** ControllersDisabledByDefault: sorted. */
  controllersDisabledByDefault(): string[] {
    return this.all()
      .filter((d) => d.disabledByDefault === true)
      .map((d) => d.name)
      .sort();
  }

  /** ControllerAliases: alias → name. */
  controllerAliases(): ReadonlyMap<string, string> {
    return this.aliases;
  }

  /** The `--controllers` help text kube-controller-manager prints. */
  flagUsage(): string {
    return (
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller " +
      `named 'foo', '-foo' disables the controller named 'foo'.\nAll controllers: ${this.knownControllers().join(', ')}\n` +
      `Disabled-by-default controllers: ${this.controllersDisabledByDefault().join(', ')}`
    );
  }
}

/** `--controllers` named a controller that does not exist; `errors` are kube-controller-manager's, one per name. */
export class ControllersFlagError extends Error {
  override readonly name = 'ControllersFlagError';
  constructor(readonly errors: readonly string[]) {
    super(aggregateMessage(errors));
  }
}

/** pflag's StringSlice: `*,-foo,bar` → ['*', '-foo', 'bar']; '' → []. */
export function splitControllersFlag(value: string): string[] {
  return value === '' ? [] : value.split(',');
}

/**
 * GenericControllerManagerConfigurationOptions Validate + ApplyTo: every name (with or without
 * `-`) must be a controller or an alias of one (`"foo" is not in the list of known controllers`,
 * thrown as ControllersFlagError); aliases become names, `-` kept.
 */
export function parseControllers(values: readonly string[], descriptors: ControllerDescriptors): string[] {
  const known = new Set(descriptors.knownControllers());
  const aliases = descriptors.controllerAliases();
  const errors: string[] = [];
  const out: string[] = [];
  for (const initialName of values) {
    if (initialName === '*') {
      out.push(initialName);
      continue;
    }
    const withoutPrefix = initialName.startsWith('-') ? initialName.slice(1) : initialName;
    const name = aliases.get(withoutPrefix) ?? withoutPrefix;
    if (!known.has(name)) errors.push(`${goQuote(withoutPrefix)} is not in the list of known controllers`);
    out.push(initialName.startsWith('-') ? `-${name}` : name);
  }
  if (errors.length > 0) throw new ControllersFlagError(errors);
  return out;
}

/**
 * IsControllerEnabled: `name` enables it and `-name` disables it (the first of them wins); else
 * `*` enables it unless it is off by default; with neither it is off.
 */
export function isControllerEnabled(
  name: string,
  disabledByDefault: ReadonlySet<string>,
  controllers: readonly string[],
): boolean {
  let hasStar = false;
  for (const ctrl of controllers) {
    if (ctrl === name) return true;
    if (ctrl === `-${name}`) return false;
    if (ctrl === '*') hasStar = true;
  }
  // No explicit choice: nothing is on by default without `*`.
  if (!hasStar) return false;
  return !disabledByDefault.has(name);
}

/** Runs the enabled controllers of a registry on one context. */
export class ControllerManager {
  private started = false;
  private readonly running: Controller[] = [];
  /** Each running controller's run(), settled (a failure is logged), by name. */
  private readonly runs = new Map<string, Promise<void>>();

  constructor(
    private readonly descriptors: ControllerDescriptors,
    private readonly ctx: ControllerContext,
  ) {}

  /** ControllerContext.IsControllerEnabled. */
  isEnabled(descriptor: ControllerDescriptor): boolean {
    const disabled = new Set(descriptor.disabledByDefault === true ? [descriptor.name] : []);
    return isControllerEnabled(descriptor.name, disabled, this.ctx.options.controllers);
  }

  /**
   * StartControllers + StartController, then InformerFactory.Start: each enabled controller built
   * (with a logger named after it; "Started controller" as soon as it is), then the informers they
   * asked for started, then every controller's run() begun — not awaited (waitForRunning does
   * that). Resolves with the names started. An init that fails is logged ("Error starting
   * controller") and rejects start(), the controllers built before it stopped again
   * (kube-controller-manager exits there). Called once; a second call rejects.
   */
  async start(): Promise<string[]> {
    if (this.started) throw new Error('the controller manager has already been started');
    this.started = true;
    const { logger } = this.ctx;
    const built: Controller[] = [];
    try {
      for (const descriptor of this.descriptors.all()) {
        const controller = descriptor.name;
        if (!this.isEnabled(descriptor)) {
          logger.info('Warning: controller is disabled', { controller });
          continue;
        }
        logger.info('Starting controller', { controller });
        let c: Controller | undefined;
        try {
          c = await descriptor.init?.({ ...this.ctx, logger: logger.withName(controller) }, controller);
        } catch (err) {
          logger.error(err, 'Error starting controller', { controller });
          throw err;
        }
        if (c === undefined) {
          logger.info('Warning: skipping controller', { controller });
          continue;
        }
        built.push(c);
        logger.info('Started controller', { controller });
      }
    } catch (err) {
      await stopAll(built, logger);
      throw err;
    }
    this.running.push(...built);
    this.ctx.informerFactory.start();
    for (const c of built) {
      this.runs.set(
        c.name,
        c.run().catch((err: unknown) => logger.error(err, 'Error running controller', { controller: c.name })),
      );
    }
    return built.map((c) => c.name);
  }

  /**
   * Resolves once the run() of each of `names` that was started (default: every one) has returned
   * — its caches synced and its first pass done — or failed (logged).
   */
  async waitForRunning(names?: readonly string[]): Promise<void> {
    const wanted = names === undefined ? [...this.runs.keys()] : names;
    await Promise.all(wanted.map((n) => this.runs.get(n)));
  }

  /** Stops every controller started, last first; the informer factory is the caller's to shut down. */
  async stop(): Promise<void> {
    await stopAll(this.running.splice(0), this.ctx.logger);
  }
}

/** Stops `controllers` last first; a failing stop is logged and the others still stopped. */
async function stopAll(controllers: Controller[], logger: ControllerContext['logger']): Promise<void> {
  for (const c of [...controllers].reverse()) {
    try {
      await c.stop();
    } catch (err) {
      logger.error(err, 'Error stopping controller', { controller: c.name });
    }
  }
}

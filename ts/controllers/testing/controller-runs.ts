/**
 * What the controllers' tests share: a controller run on its own shared informer factory of a
 * test harness's client (started, and after each test stopped with the factory shut down), and
 * waiting — in real time, a few ms at a time — for what the controller does through the apiserver.
 *
 *   const runs = controllerRuns();   // at the top of a test file: registers the afterEach
 *   const gc = await runs.start(h, (factory) => new GarbageCollector({ factory, client: h.client, … }));
 *   await waitFor(() => notFound(() => h.client.get(RESOURCES.configmaps, 'default', 'dep')));
 */
import { afterEach } from 'vitest';
import { isNotFound } from '../../api/status.js';
import { SharedInformerFactory } from '../../client/informers/factory.js';
import type { Harness } from '../../client/testing/harness.js';
import type { Controller } from '../framework/controller.js';

/** Waits until `check` holds; fails after `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Whether `read` answers 404 (true) or something (false); any other failure is thrown. */
export async function notFound(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
}

export interface ControllerRuns {
  /** A factory on `h`'s client, the controller `build` makes on it, the factory started, run() awaited. */
  start<C extends Controller>(h: Harness, build: (factory: SharedInformerFactory) => C): Promise<C>;
  /** Stops the controller started and shuts its factory down (after each test, or sooner). */
  stop(): Promise<void>;
}

/** The runs of a test file: each test's controller stopped, and its factory shut down, after it. */
export function controllerRuns(): ControllerRuns {
  let running: { controller: Controller; factory: SharedInformerFactory } | undefined;
  const stop = async (): Promise<void> => {
    const current = running;
    running = undefined;
    await current?.controller.stop();
    await current?.factory.shutdown();
  };
  afterEach(stop);
  return {
    stop,
    async start(h, build) {
      const factory = new SharedInformerFactory(h.client, { clock: h.server.clock });
      const controller = build(factory);
      running = { controller, factory };
      factory.start();
      await controller.run();
      return controller;
    },
  };
}

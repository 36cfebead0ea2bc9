// Test support: the default profile's plugin events table, as the engine declares it (the queue's
// tests use the real table, not a copy).
import { loadKubewasm } from '../../../wasm/node.js';
import { type PluginEventsTable, pluginEventsTable } from '../plugin-events.js';

/** The table a default-profile engine hands the queue. */
export async function defaultPluginEvents(): Promise<PluginEventsTable> {
  const engine = (await loadKubewasm()).newScheduler();
  try {
    return pluginEventsTable(engine.eventsToRegister());
  } finally {
    engine.free();
  }
}

/**
 * The process the crash test kills: opens the durable store in argv[2] with fsync `always` and
 * writes until killed, printing `ack <i> <revision>` after each write is acknowledged.
 */
import { openDurableStorage } from '../../ts/storage/wasm/durable.js';
import { loadKubewasm } from '../../ts/wasm/node.js';

const dir = process.argv[2] as string;
const start = Number(process.argv[3] ?? 0);
const { storage } = openDurableStorage(await loadKubewasm(), dir, { fsync: 'always' });
const encoder = new TextEncoder();
for (let i = start; ; i++) {
  const written = await storage.create(`/registry/crash/${i}`, encoder.encode(`value-${i}`));
  process.stdout.write(`ack ${i} ${written.revision}\n`);
}

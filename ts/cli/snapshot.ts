/**
 * `kubewasm snapshot save|restore|status` — backups of a data directory, in the spirit of
 * `etcdctl snapshot save|restore|status`.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { snapshotOfDataDir } from '../storage/wasm/durable.js';
import { KubewasmError } from '../wasm/errors.js';
import { loadKubewasm } from '../wasm/node.js';
import { type Flags, parseFlags } from './flags.js';

const USAGE = `usage:
  kubewasm snapshot save --data-dir DIR FILE      write a consistent snapshot of DIR's store to FILE
  kubewasm snapshot restore FILE --data-dir DIR   make DIR (new or empty) a data directory holding FILE
  kubewasm snapshot status FILE                   print a snapshot's revision, keys and size`;

export async function snapshot(args: string[]): Promise<number> {
  const [verb, ...rest] = args;
  let flags: Flags;
  try {
    flags = parseFlags(rest, { 'data-dir': 'string' });
  } catch (err) {
    console.error(`kubewasm snapshot: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const [file] = flags.positional;
  const dataDir = flags.values['data-dir'];
  const kubewasm = await loadKubewasm();
  try {
    switch (verb) {
      case 'save': {
        if (!file || typeof dataDir !== 'string') break;
        const { snapshot, recovery } = snapshotOfDataDir(kubewasm, dataDir);
        writeAtomically(file, snapshot);
        console.log(`saved revision ${recovery.revision} (${snapshot.length} bytes) to ${file}`);
        return 0;
      }
      case 'restore': {
        if (!file || typeof dataDir !== 'string') break;
        if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
          console.error(`kubewasm snapshot restore: ${dataDir} is not empty; restore into a new directory`);
          return 1;
        }
        const bytes = readFileSync(file);
        const store = kubewasm.restoreStore(bytes); // refuses a corrupt snapshot before anything is written
        const revision = store.currentRevision;
        store.free();
        mkdirSync(dataDir, { recursive: true });
        writeAtomically(join(dataDir, 'snapshot'), bytes);
        writeFileSync(join(dataDir, 'wal'), new Uint8Array());
        console.log(`restored revision ${revision} into ${dataDir}`);
        return 0;
      }
      case 'status': {
        if (!file) break;
        const bytes = readFileSync(file);
        const store = kubewasm.restoreStore(bytes);
        console.log(
          `revision ${store.currentRevision}, ${store.keyCount} keys, ${store.versionCount} versions, ${bytes.length} bytes`,
        );
        store.free();
        return 0;
      }
    }
  } catch (err) {
    const detail = err instanceof KubewasmError ? `${err.code}: ${err.message}` : String(err);
    console.error(`kubewasm snapshot ${verb}: ${detail}`);
    return 1;
  }
  console.error(USAGE);
  return 2;
}

function writeAtomically(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  writeSync(fd, bytes);
  fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, path);
}

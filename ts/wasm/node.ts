/**
 * Node entry of the wasm loader: the bytes come from the file system. (The one place under
 * ts/wasm that imports node: modules; ts/wasm/browser.ts is its twin for the browser.)
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { instantiate, type Kubewasm } from './kubewasm.js';

/**
 * Where the .wasm sits: `KUBEWASM_WASM` when set, else beside the bundle in dist/, or in
 * build/wasm/ when run from source.
 */
const candidates = [
  ...(process.env.KUBEWASM_WASM ? [pathToFileURL(process.env.KUBEWASM_WASM)] : []),
  new URL('./kubewasm_bg.wasm', import.meta.url),
  new URL('../../build/wasm/kubewasm_bg.wasm', import.meta.url),
];

let loaded: Promise<Kubewasm> | undefined;

/** Loads the wasm core once per process. */
export function loadKubewasm(): Promise<Kubewasm> {
  loaded ??= (async () => {
    const url = candidates.find((c) => existsSync(fileURLToPath(c)));
    if (!url) {
      throw new Error(`kubewasm_bg.wasm not found (looked in ${candidates.join(', ')}); run npm run build`);
    }
    return instantiate(await readFile(url));
  })();
  return loaded;
}

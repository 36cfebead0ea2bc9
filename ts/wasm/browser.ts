/** Browser entry of the wasm loader: the bytes come from a URL (by default beside the bundle). */
import { instantiate, type Kubewasm } from './kubewasm.js';

let loaded: Promise<Kubewasm> | undefined;

/** Loads the wasm core once per page or worker. */
export function loadKubewasm(url: URL | string = new URL('./kubewasm_bg.wasm', import.meta.url)): Promise<Kubewasm> {
  loaded ??= instantiate(new URL(url, import.meta.url));
  return loaded;
}

/**
 * kubewasm for the browser (a page or a worker): the loader, the typed wasm API, and the
 * Kubernetes API types as Go code names them (ts/api/types).
 */

export type * from './api/types/index.js';
export { loadKubewasm } from './wasm/browser.js';
export * from './wasm/public.js';

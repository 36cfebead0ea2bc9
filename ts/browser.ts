/** kubewasm for the browser (a page or a worker). */
export { loadKubewasm } from './wasm/browser.js';
export * from './wasm/public.js';

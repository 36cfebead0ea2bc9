/** kubewasm for Node.js. */
export { loadKubewasm } from './wasm/node.js';
export * from './wasm/public.js';

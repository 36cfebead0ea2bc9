/**
 * The dashboard's first page: loads the wasm core in the browser and shows one live result from
 * each core crate. The dashboard proper (a cluster in a worker) grows from here.
 */
import { loadKubewasm } from '../ts/browser.js';
import { type SelfCheck, selfCheck } from './self-check.js';

declare global {
  interface Window {
    /** Set once the page has run, for the headless browser test to read. */
    kubewasmSelfCheck?: SelfCheck | { error: string };
  }
}

const status = document.getElementById('status') as HTMLElement;
const table = document.getElementById('results') as HTMLTableElement;

function row(label: string, value: string): void {
  const tr = table.tBodies[0]?.insertRow() as HTMLTableRowElement;
  const th = document.createElement('th');
  th.textContent = label;
  tr.append(th);
  const code = document.createElement('code');
  code.textContent = value;
  tr.insertCell().append(code);
}

try {
  const result = selfCheck(await loadKubewasm());
  row(
    'cgroup',
    `1000m CPU → cpu.shares ${result.cgroup.shares}, cpu.max "${result.cgroup.cpuMax}", cpu.weight ${result.cgroup.weight}`,
  );
  row('store', `put /registry/pods/default/web → revision ${result.store.revision}, read back "${result.store.value}"`);
  row('scheduler', `NodeResourcesFit on a full node: ${result.sched.reasons.join(', ')}`);
  table.hidden = false;
  status.textContent = 'The wasm core is running in this tab.';
  window.kubewasmSelfCheck = result;
} catch (err) {
  status.textContent = `Failed: ${String(err)}`;
  status.className = 'error';
  window.kubewasmSelfCheck = { error: String(err) };
}

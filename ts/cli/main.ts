/** The `kubewasm` command line. Each subcommand lives in its own file. */
import { bench } from './bench.js';
import { controllerManager } from './controller-manager.js';
import { snapshot } from './snapshot.js';
import { up } from './up.js';

const USAGE = `usage: kubewasm <command>

commands:
  bench [suite…]   run benchmarks side by side (suites: store, cgroup, sched, api, controllers); results in bench/results/
                   sched: --workload NAME runs one scheduler_perf workload (or "memory")
                   api: --quick for short runs at small sizes, --watch-events N for the watch rows
  controller-manager --kubeconfig FILE   kube-controller-manager's controllers against an apiserver over HTTPS
                   (a kubewasm up's DIR/controller-manager.conf); with leader election it stands by
                   while another leads
  snapshot save|restore|status   back up and restore a data directory's store
  up [--data-dir DIR] [--port PORT]   serve the Kubernetes API on https://127.0.0.1:PORT (kubeconfig in DIR)
  version          print the version
`;

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'bench':
      return bench(rest);
    case 'controller-manager':
      return controllerManager(rest);
    case 'snapshot':
      return snapshot(rest);
    case 'up':
      return up(rest);
    case 'version':
    case '--version':
      console.log(`kubewasm ${process.env.npm_package_version ?? '0.1.0'}`);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    default:
      console.error(`kubewasm: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

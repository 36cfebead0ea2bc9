/**
 * A control loop as kube-controller-manager runs one (k8s.io/controller-manager/controller
 * Interface, and the Run(ctx, workers) every controller of pkg/controller has): event handlers on
 * shared informers that only enqueue keys, workers that reconcile each key from the listers.
 *
 *   const nc = new NamespaceController({ factory, client, clock });
 *   factory.start();
 *   await nc.run(10);  …  await nc.stop();
 */
export interface Controller {
  /** Its name as kube-controller-manager 1.32 names it (names.ts): `namespace-controller`. */
  readonly name: string;
  /**
   * Run: waits for the caches it reads to sync, then runs `workers` workers (its own default when
   * absent) until stop(); resolves once they run — after a first pass over what exists, for the
   * controllers that make something every namespace needs before pods can be created.
   */
  run(workers?: number): Promise<void>;
  /** Stops its workers and removes its event handlers; resolves when they have ended. */
  stop(): Promise<void>;
}

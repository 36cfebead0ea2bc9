/**
 * What a controller logs through (klog's logr.Logger as kube-controller-manager hands each
 * controller one named after it): informational lines and errors with structured fields. The
 * process decides where they go — `kubewasm up` writes them to stderr; tests collect them.
 *
 *   logger.error(err, 'syncing namespace', { namespace: 'team-a' });
 */
export interface Logger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(err: unknown, message: string, fields?: Readonly<Record<string, unknown>>): void;
  /** klog.LoggerWithName: a logger whose lines carry `name` (the controller's). */
  withName(name: string): Logger;
}

/** A logger that drops everything (logr.Discard). */
export const discardLogger: Logger = {
  info() {},
  error() {},
  withName() {
    return discardLogger;
  },
};

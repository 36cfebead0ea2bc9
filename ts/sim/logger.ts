/**
 * Logging, injected like the clock: every component logs through a Logger it is handed (klog's
 * logr.Logger, as kube-apiserver, kube-scheduler and kube-controller-manager hand each component
 * one named after it), never through `console`. The process decides where lines go — `kubewasm up`
 * writes errors to stderr, a browser page may show them, tests collect them.
 *
 *   const log = logger.withName('namespace-controller');
 *   log.error(err, 'syncing namespace', { namespace: 'team-a' });
 */
export interface Logger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(err: unknown, message: string, fields?: Readonly<Record<string, unknown>>): void;
  /** klog.LoggerWithName: a logger whose lines carry `name` (the component's). */
  withName(name: string): Logger;
}

/** A logger that drops everything (logr.Discard): the default of every component. */
export const discardLogger: Logger = {
  info() {},
  error() {},
  withName() {
    return discardLogger;
  },
};

/** One logged line, as `recordingLogger` keeps it. */
export interface LogLine {
  level: 'info' | 'error';
  /** The withName chain, joined with '/' ('' at the root). */
  name: string;
  message: string;
  err?: unknown;
  fields?: Readonly<Record<string, unknown>>;
}

/** A logger that keeps every line in `lines` (tests, and pages that show a component's log). */
export function recordingLogger(lines: LogLine[] = [], name = ''): Logger & { lines: LogLine[] } {
  return {
    lines,
    info(message, fields) {
      lines.push({ level: 'info', name, message, ...(fields === undefined ? {} : { fields }) });
    },
    error(err, message, fields) {
      lines.push({ level: 'error', name, message, err, ...(fields === undefined ? {} : { fields }) });
    },
    withName(child) {
      return recordingLogger(lines, name === '' ? child : `${name}/${child}`);
    },
  };
}

/** The CLI's logger: errors to stderr as `kubewasm <component>: <message>: <error>`; informational lines are not printed. */
import type { Logger } from '../sim/logger.js';

export function stderrLogger(name: string): Logger {
  return {
    info() {},
    error: (err, message, fields) => {
      const context = fields === undefined ? '' : ` ${JSON.stringify(fields)}`;
      console.error(`kubewasm ${name}: ${message}${context}: ${String(err)}`);
    },
    withName: (child) => stderrLogger(name === '' ? child : `${name} ${child}`),
  };
}

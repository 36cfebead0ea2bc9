import { describe, expect, it } from 'vitest';
import { newNotFound } from '../../api/status.js';
import { recordingLogger } from '../../sim/logger.js';
import type { Incoming } from '../incoming.js';
import { withErrorHandler } from './error-handler.js';

const request = {} as Incoming;

describe('withErrorHandler (WithPanicRecovery, ErrorNegotiated)', () => {
  it('answers a StatusError with its Status and logs nothing', async () => {
    const log = recordingLogger();
    const handle = withErrorHandler(async () => {
      throw newNotFound({ group: '', resource: 'pods' }, 'web');
    }, log);
    const res = await handle(request);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'pods "web" not found' });
    expect(log.lines).toEqual([]);
  });

  it('answers anything else as a 500 with its message (ErrorToAPIStatus), logged to the server logger', async () => {
    const log = recordingLogger();
    const bug = new TypeError('x is undefined');
    const handle = withErrorHandler(async () => {
      throw bug;
    }, log);
    const res = await handle(request);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ kind: 'Status', status: 'Failure', code: 500, message: 'x is undefined' });
    expect(log.lines).toEqual([{ level: 'error', name: '', message: 'internal error', err: bug }]);
  });
});

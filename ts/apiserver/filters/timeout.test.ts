import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/clock.js';
import { withDeadline } from './timeout.js';

describe('withDeadline', () => {
  it('answers the timeout response when the clock passes the deadline first', async () => {
    const clock = new VirtualClock(0);
    let finish: (r: Response) => void = () => {};
    const work = new Promise<Response>((resolve) => {
      finish = resolve;
    });
    const result = withDeadline(work, 1000, clock, (err) => new Response(err.message, { status: 504 }));
    clock.advance(1000);
    const res = await result;
    expect(res.status).toBe(504);
    expect(await res.text()).toBe('Timeout: request did not complete within the allotted timeout');
    finish(new Response('late'));
  });

  it('answers the work and cancels the timer when it is first', async () => {
    const clock = new VirtualClock(0);
    const res = await withDeadline(
      Promise.resolve(new Response('ok')),
      1000,
      clock,
      () => new Response('', { status: 504 }),
    );
    expect(await res.text()).toBe('ok');
    clock.advance(5000);
  });
});

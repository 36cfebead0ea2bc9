import { describe, expect, it } from 'vitest';
import { readBodyLimited } from './incoming.js';

describe('readBodyLimited (handlers/rest.go limitedReadBody)', () => {
  it('reads up to the limit and answers 413 one byte beyond it', async () => {
    const req = (n: number) => new Request('https://x/', { method: 'POST', body: 'x'.repeat(n) });
    expect((await readBodyLimited(req(10), 10)).length).toBe(10);
    await expect(readBodyLimited(req(11), 10)).rejects.toMatchObject({
      status: { code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 10' },
    });
    expect((await readBodyLimited(new Request('https://x/'), 10)).length).toBe(0);
  });
});

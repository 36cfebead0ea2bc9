import { describe, expect, it } from 'vitest';
import { authenticateStaticToken, bearerToken, parseTokenFile, tokenFileLine } from './tokens.js';

describe('token file', () => {
  it('parses token,user,uid,"groups" lines', () => {
    const tokens = parseTokenFile('t1,alice,u1,"dev,ops"\n\nt2,bob,u2\n');
    expect(tokens.get('t1')).toEqual({ name: 'alice', uid: 'u1', groups: ['dev', 'ops'] });
    expect(tokens.get('t2')).toEqual({ name: 'bob', uid: 'u2', groups: [] });
  });

  it('refuses a line with fewer than three columns', () => {
    expect(() => parseTokenFile('t1,alice\n')).toThrow(/line 1/);
  });

  it('round-trips tokenFileLine', () => {
    const user = { name: 'admin', uid: 'x', groups: ['system:masters'] };
    expect(parseTokenFile(tokenFileLine('tok', user)).get('tok')).toEqual(user);
  });

  it('authenticates only a known token, as the file gives it', () => {
    const tokens = parseTokenFile('t1,alice,u1\n');
    expect(authenticateStaticToken('t1', tokens)).toEqual({ name: 'alice', uid: 'u1', groups: [] });
    expect(authenticateStaticToken('nope', tokens)).toBeUndefined();
  });

  it('reads the bearer token as bearertoken.go splits the header', () => {
    expect(bearerToken('Bearer t1')).toBe('t1');
    expect(bearerToken('bearer t1 trailing')).toBe('t1');
    expect(bearerToken('  Bearer t1  ')).toBe('t1');
    expect(bearerToken('Bearer  t1')).toBeUndefined();
    expect(bearerToken('Basic t1')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
  });
});

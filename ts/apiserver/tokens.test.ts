import { describe, expect, it } from 'vitest';
import { authenticateBearer, parseTokenFile, tokenFileLine } from './tokens.js';

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

  it('authenticates only a known bearer token and adds system:authenticated', () => {
    const tokens = parseTokenFile('t1,alice,u1\n');
    expect(authenticateBearer('Bearer t1', tokens)?.groups).toEqual(['system:authenticated']);
    expect(authenticateBearer('Bearer nope', tokens)).toBeUndefined();
    expect(authenticateBearer('Basic t1', tokens)).toBeUndefined();
    expect(authenticateBearer(null, tokens)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { compareVersionPriority } from './version-priority.js';

describe('compareVersionPriority', () => {
  it('sorts as version/helpers_test.go lists them: GA, beta, alpha, then others lexically', () => {
    const versions = ['v11alpha2', 'foo10', 'v1', 'v12alpha1', 'v10beta3', 'v2', 'foo1', 'v3beta1', 'v10', 'v11beta2'];
    expect([...versions].sort(compareVersionPriority)).toEqual([
      'v10',
      'v2',
      'v1',
      'v11beta2',
      'v10beta3',
      'v3beta1',
      'v12alpha1',
      'v11alpha2',
      'foo1',
      'foo10',
    ]);
  });
});

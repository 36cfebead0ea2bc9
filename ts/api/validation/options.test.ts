import { describe, expect, it } from 'vitest';
import type { ErrorList } from '../field-errors.js';
import {
  validateCreateOrUpdateOptions,
  validateDeleteOptions,
  validatePatchOptions,
  validateTableOptions,
} from './options.js';
import fixtures from './options.k8s.json' with { type: 'json' };

// options.k8s.json: the same options through apimachinery v0.32.4's meta/v1 validation.
const cases: Record<string, ErrorList> = {
  'delete ok': validateDeleteOptions({ propagationPolicy: 'Background' }),
  'delete both': validateDeleteOptions({ propagationPolicy: 'Background', orphanDependents: false }),
  'delete bad policy': validateDeleteOptions({ propagationPolicy: 'Sideways' as 'Orphan' }),
  'delete bad dryRun': validateDeleteOptions({ dryRun: ['All', 'Some'] }),
  'delete ignore store errors': validateDeleteOptions({
    ignoreStoreReadErrorWithClusterBreakingPotential: true,
    dryRun: ['All'],
    propagationPolicy: 'Background',
    gracePeriodSeconds: 0,
    preconditions: {},
  }),
  'create ok': validateCreateOrUpdateOptions({ fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
  'create bad': validateCreateOrUpdateOptions({
    fieldManager: `a\u0001${'m'.repeat(130)}`,
    dryRun: ['x'],
    fieldValidation: 'strict',
  }),
  'apply without manager': validatePatchOptions({}, 'application/apply-patch+yaml'),
  'merge with force': validatePatchOptions({ force: false }, 'application/merge-patch+json'),
  'table bad': validateTableOptions('All'),
};

describe('request options', () => {
  it.each(fixtures.map((f) => [f.name, f] as const))('%s', (name, f) => {
    expect(cases[name]?.map(String)).toEqual(f.errors);
  });
});

import { describe } from 'vitest';
import { runCases } from './testing/kind-cases.js';

describe('groups: Kubernetes v1.32.4 answers (kinds.k8s.json)', () => {
  runCases(
    'hpa/',
    'pdb/',
    'priorityclass/',
    'role/',
    'clusterrole/',
    'rolebinding/',
    'clusterrolebinding/',
    'lease/',
    'endpointslice/',
  );
});

import { describe } from 'vitest';
import { runCases } from './testing/kind-cases.js';

describe('apps: Kubernetes v1.32.4 answers (kinds.k8s.json)', () => {
  runCases('deploy/', 'rs/', 'ds/', 'sts/');
});

import { describe } from 'vitest';
import { runCases } from './testing/kind-cases.js';

describe('core/v1 ReplicationController: Kubernetes v1.32.4 answers (kinds.k8s.json)', () => {
  runCases('rc/');
});

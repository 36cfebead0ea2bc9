/**
 * The patch types custom resources take (customresource_handler.go serveResource: JSON patch, merge
 * patch and apply; strategic merge patch needs Go struct tags custom resources do not have):
 * anything else is 415 with the list of those.
 */
import { newUnsupportedMediaType } from '../../api/status.js';

const CUSTOM_RESOURCE_PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/apply-patch+yaml',
];

/** Throws the 415 for a strategic merge patch of a custom resource. */
export function refuseStrategicMergePatch(contentType: string): void {
  const type = contentType.split(';')[0]?.trim() ?? '';
  if (type === 'application/strategic-merge-patch+json') throw newUnsupportedMediaType(CUSTOM_RESOURCE_PATCH_TYPES);
}

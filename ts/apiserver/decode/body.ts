/**
 * Request bodies by media type, as kube-apiserver's negotiated serializers take them
 * (k8s.io/apiserver pkg/endpoints/handlers/rest.go, create.go, patch.go): JSON, YAML and protobuf
 * bodies read to the body limit as JSON text (415 for any other type); PATCH bodies checked with
 * each patch type's decoder texts.
 */
import { newBadRequest, newRequestEntityTooLarge, newUnsupportedMediaType } from '../../api/status.js';
import type { Incoming } from '../incoming.js';
import { parseJsonObject } from './codec.js';
import { scanJson } from './go-json.js';
import { PROTOBUF_TYPE, protobufBodyToJson } from './protobuf/decode.js';
import { YAML_TYPE, yamlToJson } from './yaml.js';

/** maxJSONPatchOperations (k8s.io/apiserver pkg/endpoints/handlers/patch.go). */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/**
 * The request body as JSON text, read to `maxBytes` (413); YAML and protobuf converted.
 * `kind` (creates and updates) checks it decodes as one, with the apiserver's decode errors.
 */
export async function bodyAsJson(
  request: Pick<Incoming, 'headers' | 'bytes' | 'textWithin'>,
  maxBytes: number,
  kind?: string,
): Promise<string> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0]?.trim() ?? '';
  if (type !== '' && type !== 'application/json' && type !== '*/*' && type !== YAML_TYPE && type !== PROTOBUF_TYPE) {
    throw newUnsupportedMediaType(['application/json', YAML_TYPE, PROTOBUF_TYPE]);
  }
  if (type === PROTOBUF_TYPE) return protobufBodyToJson(await request.bytes(maxBytes));
  const text = await request.textWithin(maxBytes);
  if (type === YAML_TYPE) {
    const json = yamlToJson(text, kind);
    // Decode failures of the converted text are reported with the YAML as sent.
    if (kind !== undefined) parseJsonObject(json, kind, text);
    return json;
  }
  return text;
}

/**
 * A PATCH body checked as kube-apiserver decodes it (handlers/patch.go): JSON syntax and nesting
 * with the texts of each patch type's decoder, and at most 10000 JSON patch operations (413).
 */
export function checkPatchBody(contentType: string, text: string): void {
  const type = contentType.split(';')[0]?.trim() ?? '';
  const scan = scanJson(text);
  if (type === 'application/json-patch+json') {
    if (scan.error !== undefined) throw newBadRequest(scan.error);
    const ops: unknown = JSON.parse(text);
    if (Array.isArray(ops) && ops.length > MAX_JSON_PATCH_OPERATIONS) {
      throw newRequestEntityTooLarge(
        `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
      );
    }
  } else if (scan.error !== undefined) {
    // evanphx/json-patch ErrBadJSONPatch for merge patches, mergepatch.ErrBadJSONDoc for strategic ones.
    if (type === 'application/merge-patch+json') throw newBadRequest('Invalid JSON Patch');
    if (type === 'application/strategic-merge-patch+json') throw newBadRequest('invalid JSON document');
  }
}

/**
 * A decoded body's TypeMeta and ObjectMeta as the create and update handlers read them
 * (k8s.io/apimachinery runtime/serializer/json, k8s.io/apiserver pkg/endpoints/handlers/create.go):
 * apiVersion and kind defaulted from the URL and checked against what kube-apiserver's scheme
 * knows (scheme-kinds.k8s.json), metadata an object.
 */
import type { ObjectMeta } from '../../api/meta.js';
import { newBadRequest } from '../../api/status.js';
import { groupVersion, type ResourceInfo } from '../registry/resources.js';
import schemeKinds from './scheme-kinds.k8s.json' with { type: 'json' };

/** The Go package of a group's internal types: `core` for the core group, else the group's first label. */
const internalPackage = (group: string): string => (group === '' ? 'core' : (group.split('.')[0] ?? group));

/** Every group/version/kind kube-apiserver's scheme knows (scheme-kinds.k8s.json, from Kubernetes itself). */
const SCHEME_KINDS: ReadonlySet<string> = new Set(schemeKinds.kinds);

/**
 * The name kube-apiserver's scheme has in its errors (runtime.NewScheme's call site,
 * pkg/api/legacyscheme/scheme.go line 30, as a release build names it).
 */
const LEGACY_SCHEME = 'pkg/api/legacyscheme/scheme.go:30';

/**
 * The body's apiVersion and kind, defaulted from the URL where absent, as the create and update
 * handlers decode them (runtime/serializer/json, handlers/create.go): the URL's own decode; a kind
 * the scheme does not know is "no kind … is registered" and another known kind fails converting
 * into the URL's type (both through transformDecodeError: "<Kind> in version "<v>" cannot be
 * handled as a <Kind>: …"); the URL's kind in another known version decodes, then is refused for
 * its version. Custom resources check only the version and kind they are served as.
 */
export function checkTypeMeta(
  info: Pick<ResourceInfo, 'group' | 'version' | 'kind' | 'custom'>,
  body: Record<string, unknown>,
): void {
  const want = groupVersion(info);
  // gvkWithDefaults: what the body leaves out (or empty) is the URL's.
  const orURL = (v: unknown, url: string): string => (v === undefined || v === '' ? url : String(v));
  const apiVersion = orURL(body.apiVersion, want);
  const kind = orURL(body.kind, info.kind);
  if (apiVersion !== want || kind !== info.kind) {
    if (info.custom === undefined) {
      const version = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
      const cannot = `${kind} in version "${version}" cannot be handled as a ${info.kind}`;
      if (!SCHEME_KINDS.has(`${apiVersion}/${kind}`)) {
        throw newBadRequest(
          `${cannot}: no kind "${kind}" is registered for version "${apiVersion}" in scheme "${LEGACY_SCHEME}"`,
        );
      }
      if (kind !== info.kind) {
        throw newBadRequest(
          `${cannot}: converting (${version}.${kind}) to (${internalPackage(info.group)}.${info.kind}): unknown conversion`,
        );
      }
    }
    if (apiVersion !== want) {
      throw newBadRequest(
        `the API version in the data (${apiVersion}) does not match the expected API version (${want})`,
      );
    }
    throw newBadRequest(`the kind in the data (${kind}) does not match the expected kind (${info.kind})`);
  }
  body.apiVersion = want;
  body.kind = info.kind;
}

/** The body's metadata (made an empty object when absent); 400 when it is not an object. */
export function metaOf(body: Record<string, unknown>): ObjectMeta {
  const m = body.metadata;
  if (m === undefined || m === null) {
    const meta: ObjectMeta = {};
    body.metadata = meta;
    return meta;
  }
  if (typeof m !== 'object' || Array.isArray(m)) throw newBadRequest('metadata must be an object');
  return m as ObjectMeta;
}

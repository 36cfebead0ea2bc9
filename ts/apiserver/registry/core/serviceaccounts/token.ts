/**
 * `serviceaccounts/<name>/token`: POST an authentication.k8s.io/v1 TokenRequest, answered with a
 * signed service account JWT (pkg/registry/core/serviceaccount/storage/token.go TokenREST.Create,
 * pkg/apis/authentication/validation ValidateTokenRequest, v1.32, with its default feature gates:
 * ServiceAccountTokenJTI, ServiceAccountTokenPodNodeInfo and ServiceAccountTokenNodeBinding on).
 */
import { type ErrorList, FieldPath, invalid, tooLong } from '../../../../api/field-errors.js';
import type { KubeObject } from '../../../../api/meta.js';
import { isNotFound, newBadRequest, newConflict, newInvalid, newNotFound } from '../../../../api/status.js';
import { rfc3339 } from '../../../../api/time.js';
import { requestAttributes } from '../../../admission/chain.js';
import {
  type ClaimRef,
  DEFAULT_SERVICE_ACCOUNT_ISSUER,
  type ServiceAccountKey,
  serviceAccountClaims,
  signServiceAccountToken,
} from '../../../authn/service-account-jwt.js';
import { decodeStored, parseJsonObject } from '../../../decode/codec.js';
import { checkUnknownFields } from '../../../decode/field-validation.js';
import { checkTypeMeta, metaOf } from '../../../decode/type-meta.js';
import { jsonResponse } from '../../../endpoints/response.js';
import { checkOptions, fieldValidation, writeOptions } from '../../../endpoints/rest-options.js';
import { isDryRun, type ResourceRequest, type RestContext } from '../../generic/context.js';
import { newUid } from '../../generic/names.js';
import { getReadAt } from '../../generic/read-options.js';
import { storageCall } from '../../generic/storage-call.js';
import { bodyKind, findResource, objectKey } from '../../resources.js';

/** What the token subresource signs with: the key, the issuer and the API audiences. */
export interface TokenIssuer {
  /** The signing key (--service-account-signing-key-file). */
  key(): Promise<ServiceAccountKey>;
  /** --service-account-issuer (default https://kubernetes.default.svc.cluster.local). */
  issuer: string;
  /** --api-audiences (default: the issuer). */
  audiences: readonly string[];
}

/** A TokenIssuer over a key; without one, a key made on first use (good for this process only). */
export function tokenIssuer(
  key: ServiceAccountKey | (() => Promise<ServiceAccountKey>),
  issuer = DEFAULT_SERVICE_ACCOUNT_ISSUER,
  audiences: readonly string[] = [issuer],
): TokenIssuer {
  let cached: Promise<ServiceAccountKey> | undefined;
  return {
    key: () => {
      cached ??= typeof key === 'function' ? key() : Promise.resolve(key);
      return cached;
    },
    issuer,
    audiences,
  };
}

/** pkg/serviceaccount/claims.go: the projected-token expiry a kubelet asks for (1 h + 7 s) … */
const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** … extended to a year when --service-account-extend-token-expiration (default true) is set. */
const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;
/** v1 SetDefaults_TokenRequestSpec: one hour. */
const DEFAULT_EXPIRATION_SECONDS = 60 * 60;
/** ValidateTokenRequest: at least 10 minutes, at most math.MaxUint32 seconds. */
const MIN_EXPIRATION_SECONDS = 10 * 60;
const MAX_UINT32 = 4294967295;

const TOKEN_REQUEST = bodyKind('authentication.k8s.io', 'v1', 'TokenRequest', ['spec', 'status']);
const TOKEN_REQUEST_GK = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** validation.ValidateTokenRequest. */
export function validateTokenRequest(expirationSeconds: number): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.root('spec', 'expirationSeconds');
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errs.push(invalid(path, expirationSeconds, 'may not specify a duration less than 10 minutes'));
  }
  if (expirationSeconds > MAX_UINT32) errs.push(tooLong(path, MAX_UINT32));
  return errs;
}

/** A core/v1 object by kind from storage, or the NotFound its getter answers. */
async function getCore(ctx: RestContext, resource: string, namespace: string, name: string): Promise<KubeObject> {
  const info = findResource('', 'v1', resource);
  if (info === undefined) throw new Error(`${resource} are not served`);
  const stored = await storageCall('get', info, name, () =>
    ctx.storage.get(objectKey(info, namespace, name), getReadAt(null)),
  );
  if (stored === undefined) throw newNotFound({ group: '', resource }, name);
  return decodeStored(stored);
}

/** schema.FromAPIVersionAndKind's group and GroupVersionKind.String(). */
function gvkOf(apiVersion: string, kind: string): { group: string; text: string } {
  const slash = apiVersion.indexOf('/');
  // ParseGroupVersion: "v1" is the core group; "a/b/c" does not parse and leaves an empty GV.
  let group = '';
  let version = apiVersion;
  if (slash >= 0) {
    if (apiVersion.indexOf('/', slash + 1) >= 0) {
      version = '';
    } else {
      group = apiVersion.slice(0, slash);
      version = apiVersion.slice(slash + 1);
    }
  }
  return { group, text: `${group}/${version}, Kind=${kind}` };
}

/** TokenREST.Create. */
export async function createTokenRequest(
  ctx: RestContext,
  req: ResourceRequest,
  bodyText: string,
  issuer: TokenIssuer,
): Promise<Response> {
  const { name, namespace } = req;
  const opts = writeOptions(req.query);
  checkOptions('CreateOptions', opts);
  const body = parseJsonObject(bodyText, 'TokenRequest');
  checkTypeMeta(TOKEN_REQUEST, body);
  const warnings = checkUnknownFields(TOKEN_REQUEST, body, fieldValidation(opts));
  const meta = metaOf(body);
  // The name and namespace in the body must match the URL's, if given.
  if ((meta.name ?? '') !== '' && meta.name !== name) {
    throw newInvalid(TOKEN_REQUEST_GK, name, [
      invalid(FieldPath.root('metadata', 'name'), meta.name, 'must match the service account name if specified'),
    ]);
  }
  if ((meta.namespace ?? '') !== '' && meta.namespace !== namespace) {
    throw newInvalid(TOKEN_REQUEST_GK, name, [
      invalid(
        FieldPath.root('metadata', 'namespace'),
        meta.namespace,
        'must match the service account namespace if specified',
      ),
    ]);
  }
  const sa = await getCore(ctx, 'serviceaccounts', namespace, name);

  const spec: Obj = isObj(body.spec) ? body.spec : {};
  const audiences =
    Array.isArray(spec.audiences) && spec.audiences.length > 0 ? spec.audiences.map(str) : [...issuer.audiences];
  const expirationSeconds =
    typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : DEFAULT_EXPIRATION_SECONDS;
  const nowMs = ctx.clock.now();
  const errs = validateTokenRequest(expirationSeconds);
  if (errs.length > 0) throw newInvalid(TOKEN_REQUEST_GK, '', errs);

  let pod: ClaimRef | undefined;
  let node: ClaimRef | undefined;
  let secret: ClaimRef | undefined;
  const ref = isObj(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
  if (ref !== undefined) {
    const refName = str(ref.name);
    const kind = str(ref.kind);
    const gvk = gvkOf(str(ref.apiVersion), kind);
    let uid = '';
    if (gvk.group === '' && kind === 'Pod') {
      const p = await getCore(ctx, 'pods', namespace, refName);
      const podSpec: Obj = isObj((p as Obj).spec) ? ((p as Obj).spec as Obj) : {};
      if (name !== str(podSpec.serviceAccountName)) {
        throw newBadRequest(
          `cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`,
        );
      }
      uid = p.metadata?.uid ?? '';
      pod = { name: p.metadata?.name ?? refName, uid };
      // ServiceAccountTokenPodNodeInfo: the pod's node, by name alone when it does not exist.
      const nodeName = str(podSpec.nodeName);
      if (nodeName !== '') {
        try {
          const n = await getCore(ctx, 'nodes', '', nodeName);
          node = { name: nodeName, uid: n.metadata?.uid ?? '' };
        } catch (err) {
          if (!isNotFound(err)) throw err;
          node = { name: nodeName };
        }
      }
    } else if (gvk.group === '' && kind === 'Node') {
      const n = await getCore(ctx, 'nodes', '', refName);
      uid = n.metadata?.uid ?? '';
      node = { name: n.metadata?.name ?? refName, uid };
    } else if (gvk.group === '' && kind === 'Secret') {
      const s = await getCore(ctx, 'secrets', namespace, refName);
      uid = s.metadata?.uid ?? '';
      secret = { name: s.metadata?.name ?? refName, uid };
    } else {
      throw newBadRequest(`cannot bind token to object of type ${gvk.text}`);
    }
    const refUid = str(ref.uid);
    if (refUid !== '' && uid !== refUid) {
      throw newConflict(
        { group: gvk.group, resource: kind },
        refName,
        `the UID in the bound object reference (${refUid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
  }

  // The projected-token transition: a pod-bound token asking for 1 h 7 s lives a year, warning after the hour.
  let exp = expirationSeconds;
  let warnAfter = 0;
  if (
    pod !== undefined &&
    expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS &&
    audiences.every((a) => issuer.audiences.includes(a))
  ) {
    warnAfter = exp;
    exp = EXPIRATION_EXTENSION_SECONDS;
  }
  const issuedAt = Math.floor(nowMs / 1000);
  const claims = serviceAccountClaims({
    issuer: issuer.issuer,
    audiences,
    namespace,
    serviceAccount: { name: sa.metadata?.name ?? name, uid: sa.metadata?.uid ?? '' },
    ...(pod === undefined ? {} : { pod }),
    ...(secret === undefined ? {} : { secret }),
    ...(node === undefined ? {} : { node }),
    issuedAt,
    expirationSeconds: exp,
    warnAfterSeconds: warnAfter,
    id: newUid(),
  });
  const token = await signServiceAccountToken(await issuer.key(), claims);

  const outMeta: Obj = { ...(isObj(body.metadata) ? body.metadata : {}) };
  outMeta.name = str(outMeta.name) || name;
  outMeta.namespace = str(outMeta.namespace) || namespace;
  outMeta.creationTimestamp = rfc3339(nowMs);
  const out = {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: outMeta,
    // audiences and boundObjectRef are not omitempty in the v1 type.
    spec: { audiences, expirationSeconds, boundObjectRef: ref ?? null },
    status: { token, expirationTimestamp: rfc3339(nowMs + expirationSeconds * 1000) },
  };
  return jsonResponse(201, out, { warnings });
}

/**
 * Admission of a CREATE of serviceaccounts/token, on the TokenRequest as sent (createTokenRequest
 * decodes and answers it; a body that does not decode is left to its errors).
 */
export async function admitTokenRequest(ctx: RestContext, req: ResourceRequest, bodyText: string): Promise<void> {
  if (ctx.admission === undefined) return;
  let tokenRequest: Obj;
  try {
    tokenRequest = parseJsonObject(bodyText);
  } catch {
    return;
  }
  const dryRun = isDryRun(writeOptions(req.query));
  const warnings: string[] = [];
  await ctx.admission.admit(requestAttributes(req, 'CREATE', tokenRequest, undefined, dryRun, warnings));
  await ctx.admission.validate(requestAttributes(req, 'CREATE', tokenRequest, undefined, dryRun, warnings));
}

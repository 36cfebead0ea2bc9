/**
 * The service account token authenticator of kube-apiserver (--service-account-issuer,
 * pkg/serviceaccount/jwt.go with claims.go's validator and --service-account-lookup, on by
 * default): the JWT checked by ../service-account-jwt.ts, and the service account, and the pod,
 * secret it is bound to, looked up in storage — a token outlives neither.
 */
import { StorageError } from '../../storage/errors.js';
import type { Storage } from '../../storage/storage.js';
import { decodeStored } from '../decode/codec.js';
import { getReadAt } from '../registry/generic/read-options.js';
import { findResource, objectKey } from '../registry/resources.js';
import {
  type LiveObject,
  type ObjectLookup,
  type ServiceAccountKey,
  verifyServiceAccountToken,
} from './service-account-jwt.js';
import type { UserInfo } from './tokens.js';

/** A token authenticator's answer: a user (with the audiences it is good for), an error, or not ours. */
export type TokenResult = { user: UserInfo; audiences?: string[] } | { error: string } | Record<string, never>;

/** Authenticates a bearer token for the requested audiences (undefined: the API audiences). */
export type TokenAuthenticator = (token: string, requestedAudiences?: readonly string[]) => Promise<TokenResult>;

const RESOURCE_OF = {
  ServiceAccount: 'serviceaccounts',
  Pod: 'pods',
  Secret: 'secrets',
  Node: 'nodes',
} as const;

/** The validator's getter over storage (legacy.go's lookup through the registry). */
export function storageLookup(storage: Storage): ObjectLookup {
  return async (kind, namespace, name) => {
    const info = findResource('', 'v1', RESOURCE_OF[kind]);
    if (info === undefined || name === '') return undefined;
    let stored: Awaited<ReturnType<Storage['get']>>;
    try {
      stored = await storage.get(objectKey(info, namespace, name), getReadAt(null));
    } catch (err) {
      if (err instanceof StorageError && err.code === 'KeyNotFound') return undefined;
      throw err;
    }
    if (stored === undefined) return undefined;
    const meta = decodeStored(stored).metadata ?? {};
    const live: LiveObject = { uid: meta.uid ?? '' };
    if (meta.deletionTimestamp) live.deletionTimestamp = Date.parse(meta.deletionTimestamp);
    return live;
  };
}

export interface ServiceAccountAuthenticatorOptions {
  storage: Storage;
  /** The keys tokens are verified with (the signing key's public half). */
  keys: () => Promise<readonly ServiceAccountKey[]>;
  issuer: string;
  /** --api-audiences. */
  audiences: readonly string[];
  /** Now, in ms since the epoch. */
  now: () => number;
}

/** jwtTokenAuthenticator.AuthenticateToken for tokens of `issuer`. */
export function serviceAccountAuthenticator(options: ServiceAccountAuthenticatorOptions): TokenAuthenticator {
  const lookup = storageLookup(options.storage);
  return async (token, requestedAudiences) => {
    const result = await verifyServiceAccountToken(token, {
      keys: await options.keys(),
      issuers: [options.issuer],
      audiences: options.audiences,
      ...(requestedAudiences === undefined ? {} : { requestedAudiences }),
      now: options.now(),
      lookup,
    });
    if (result.ok) {
      const { name, uid, groups, extra, audiences } = result.identity;
      return { user: { name, uid, groups, extra }, audiences };
    }
    return result.notMine ? {} : { error: result.error };
  };
}

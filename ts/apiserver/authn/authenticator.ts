/**
 * The request authenticator kube-apiserver builds (pkg/kubeapiserver/authenticator/config.go):
 * a union, in this order, of client certificates (x509.ts) and bearer tokens — the static token
 * file, then service account JWTs (service-account.ts), cached on success for ten seconds — then
 * `system:authenticated` added to whoever authenticated (user.ts), and with --anonymous-auth the
 * anonymous user for a request that carries no credentials at all. Invalid credentials are a 401
 * even then ("don't consider a bad bearer token … anonymous").
 */
import type { X509Certificate } from '@peculiar/x509';
import { newUnauthorized, type StatusError } from '../../api/status.js';
import type { ConnectionInfo } from './connection.js';
import type { TokenAuthenticator, TokenResult } from './service-account.js';
import { authenticateStaticToken, bearerToken, type UserInfo } from './tokens.js';
import { anonymousUser, withAuthenticatedGroup } from './user.js';
import { authenticateCertificate } from './x509.js';

/** bearertoken.go invalidToken: a token no token authenticator took, without a reason of its own. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

/** pkg/kubeapiserver/options/authentication.go: TokenSuccessCacheTTL 10 s, TokenFailureCacheTTL 0 (failures not cached). */
const TOKEN_SUCCESS_CACHE_TTL_MS = 10_000;
/** Entries the success cache holds before it forgets the oldest. */
const TOKEN_CACHE_SIZE = 4096;

export interface AuthenticatorOptions {
  /** --token-auth-file. */
  tokens: ReadonlyMap<string, UserInfo>;
  /** Service account tokens (--service-account-issuer). */
  serviceAccounts?: TokenAuthenticator;
  /** --client-ca-file: the roots client certificates must chain to; none = no certificate authentication. */
  clientCA?: readonly X509Certificate[];
  /** --api-audiences: what the audience-agnostic token file is good for. */
  apiAudiences?: readonly string[];
  /** --anonymous-auth (kube-apiserver's default is true; kubewasm's is false). */
  anonymous?: boolean;
  /** Now, in ms since the epoch. */
  now: () => number;
}

/** A token union's answer, as a TokenReview reports it. */
export interface TokenAuthentication {
  user?: UserInfo;
  audiences?: string[];
  error?: string;
}

export interface RequestAuthenticator {
  /** The user a request authenticates as (system:authenticated added), or throws the 401. */
  authenticate(authorization: string | null, connection?: ConnectionInfo): Promise<UserInfo>;
  /** The bearer token authenticator alone, for `audiences` (TokenReview); system:authenticated added. */
  authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthentication>;
}

/** utilerrors.NewAggregate(errs).Error(): one error as itself, several as `[a, b]`. */
function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`;
}

export function createAuthenticator(options: AuthenticatorOptions): RequestAuthenticator {
  const cache = new Map<string, { result: TokenResult; expires: number }>();

  /** tokenunion.New over the token file and the service account authenticator, behind tokencache. */
  async function tokenUnion(token: string, audiences?: readonly string[]): Promise<TokenResult> {
    const key = audiences === undefined ? token : `${audiences.join('\u0000')}\u0001${token}`;
    const now = options.now();
    const hit = cache.get(key);
    if (hit !== undefined && hit.expires > now) return hit.result;
    if (hit !== undefined) cache.delete(key);
    const errors: string[] = [];
    let result: TokenResult = {};
    // WrapAudienceAgnosticToken: the file's users are good for the API audiences asked for.
    const implicit = options.apiAudiences ?? [];
    const fileAudiences = audiences === undefined ? [...implicit] : implicit.filter((a) => audiences.includes(a));
    const fromFile =
      audiences !== undefined && fileAudiences.length === 0
        ? undefined
        : authenticateStaticToken(token, options.tokens);
    if (fromFile !== undefined) {
      result = { user: fromFile, ...(fileAudiences.length > 0 ? { audiences: fileAudiences } : {}) };
    } else if (options.serviceAccounts !== undefined) {
      const sa = await options.serviceAccounts(token, audiences);
      if ('error' in sa) errors.push(sa.error);
      else result = sa;
    }
    if ('user' in result) {
      if (cache.size >= TOKEN_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(key, { result, expires: now + TOKEN_SUCCESS_CACHE_TTL_MS });
      return result;
    }
    return errors.length > 0 ? { error: aggregate(errors) } : {};
  }

  async function authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthentication> {
    const result = await tokenUnion(token, audiences);
    if ('user' in result) {
      return {
        user: withAuthenticatedGroup(result.user),
        ...(result.audiences ? { audiences: result.audiences } : {}),
      };
    }
    // bearertoken.go: no user and no error is invalidToken.
    return { error: 'error' in result ? result.error : INVALID_BEARER_TOKEN };
  }

  const unauthorized = (): StatusError => newUnauthorized('Unauthorized');

  return {
    async authenticate(authorization, connection) {
      const errors: string[] = [];
      // union.New: the first authenticator with a user wins; errors only count when none has one.
      if (options.clientCA !== undefined && options.clientCA.length > 0) {
        const cert = await authenticateCertificate(
          connection?.peerCertificates,
          options.clientCA,
          new Date(options.now()),
        );
        if ('user' in cert) return withAuthenticatedGroup(cert.user);
        if ('error' in cert) errors.push(cert.error);
      }
      const token = bearerToken(authorization);
      if (token !== undefined) {
        const result = await authenticateToken(token);
        if (result.user !== undefined) return result.user;
        errors.push(result.error ?? INVALID_BEARER_TOKEN);
      }
      // NewFailOnError(…, anonymous): only a request that offered nothing is anonymous.
      if (errors.length === 0 && options.anonymous === true) return anonymousUser();
      throw unauthorized();
    },
    authenticateToken,
  };
}

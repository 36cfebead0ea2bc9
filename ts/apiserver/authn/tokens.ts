/**
 * Static bearer tokens in kube-apiserver's `--token-auth-file` CSV format:
 * `token,user,uid,"group1,group2"` (k8s.io/apiserver pkg/authentication/token/tokenfile).
 */

/** Who a request is (user.Info). */
export interface UserInfo {
  name: string;
  uid: string;
  groups: string[];
  /** user.Info's Extra: service account token facts, a certificate's credential id, impersonated extras. */
  extra?: Record<string, string[]>;
}

/** Splits one CSV record, honouring double quotes ("" inside quotes is a literal quote). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/**
 * Parses a token file: at least token, user, uid per line; an optional 4th column of
 * comma-separated groups. Blank lines are skipped; a short line is an error (as in tokenfile.go).
 */
export function parseTokenFile(text: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const record = csvFields(line);
    if (record.length < 3) throw new Error(`token file is invalid: line ${i + 1}: needs at least 3 columns`);
    const [token, name, uid, groups] = record as [string, string, string, string | undefined];
    if (token === '') throw new Error(`token file is invalid: line ${i + 1}: empty token`);
    tokens.set(token, {
      name,
      uid,
      groups: groups === undefined || groups === '' ? [] : groups.split(',').map((g) => g.trim()),
    });
  });
  return tokens;
}

/** One line of a token file for `user`. */
export function tokenFileLine(token: string, user: UserInfo): string {
  return `${token},${user.name},${user.uid},"${user.groups.join(',')}"\n`;
}

/** The bearer token of an `Authorization` header (request/bearertoken/bearertoken.go), or undefined. */
export function bearerToken(header: string | null): string | undefined {
  const auth = (header ?? '').trim();
  if (auth === '') return undefined;
  // strings.SplitN(auth, " ", 3): `Bearer  t` (two spaces) has an empty token.
  const first = auth.indexOf(' ');
  if (first < 0 || auth.slice(0, first).toLowerCase() !== 'bearer') return undefined;
  const rest = auth.slice(first + 1);
  const second = rest.indexOf(' ');
  const token = second < 0 ? rest : rest.slice(0, second);
  // "Empty bearer tokens aren't valid."
  return token === '' ? undefined : token;
}

/** The static token file's authenticator (tokenfile.go AuthenticateToken): the user, or undefined. */
export function authenticateStaticToken(token: string, tokens: ReadonlyMap<string, UserInfo>): UserInfo | undefined {
  return tokens.get(token);
}

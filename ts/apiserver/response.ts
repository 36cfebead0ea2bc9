/** JSON responses: every body kube-apiserver sends here is `application/json` (api.md §0.6). */

export const JSON_TYPE = 'application/json';

/** A JSON response; `warnings` become `Warning: 299 - "<text>"` headers as the apiserver sends them. */
export function jsonResponse(
  status: number,
  body: unknown,
  options: { contentType?: string; warnings?: readonly string[] } = {},
): Response {
  const headers = new Headers({ 'Content-Type': options.contentType ?? JSON_TYPE });
  for (const w of options.warnings ?? []) headers.append('Warning', `299 - ${JSON.stringify(w)}`);
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * @module Sending one HTTP request of a client transport under an {@link HttpAuthorization}: the
 * current `Authorization` header on it, and on a 401 or 403 the authorization's chance to get new
 * credentials, then the request sent again with them.
 */
import type { HttpAuthorization } from './httpAuthorization.js';

/** Challenges one request may answer before its refusal is returned as it is. */
const MAX_CHALLENGES = 6;

/** Sends a request through `send`, authorized by `auth` when there is one. */
export async function sendAuthorized(
  auth: HttpAuthorization | undefined,
  request: { endpoint: URL; headers: Record<string, string>; signal?: AbortSignal | undefined },
  send: (headers: Record<string, string>) => Promise<Response>,
): Promise<Response> {
  if (!auth) return send(request.headers);
  const { endpoint, signal } = request;
  let stepUps = 0;
  for (let attempt = 0; ; attempt++) {
    const value = await auth.header(endpoint, signal);
    const response = await send(
      value === undefined ? request.headers : { ...request.headers, authorization: value },
    );
    if ((response.status !== 401 && response.status !== 403) || attempt >= MAX_CHALLENGES)
      return response;
    if (!(await auth.challenged(endpoint, response, { attempt, stepUps, signal }))) return response;
    if (response.status === 403) stepUps++;
    await response.body?.cancel().catch(() => {});
  }
}

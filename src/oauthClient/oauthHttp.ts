/**
 * @module The OAuth client's requests to metadata, registration and token endpoints. Every URL,
 * and every redirect hop, passes the network policy first; redirects are followed by hand (a few,
 * GET only: a token or registration request is never re-sent elsewhere); answers are read up to a
 * size limit and a deadline, so a hostile endpoint can neither point the client at an internal
 * address nor hold it with an endless or enormous body. A host name is connected to at the
 * addresses it was checked at (a pinned fetch), never resolved again on the way.
 */
import { readBody } from '../transports/http/shared/body.js';
import {
  checkDestination,
  redact,
  type CheckedAddress,
  type NetworkPolicy,
} from './networkPolicy.js';
import { OAuthError } from './oauthError.js';
import type { PinnedFetch, PinnedRequest } from './pinnedFetch.js';

/** Largest metadata, registration or token response read. */
export const MAX_OAUTH_RESPONSE_BYTES: number = 256 * 1024;
const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 30_000;

/** An answer: its status and its body parsed as JSON (undefined when not JSON). */
export interface JsonAnswer {
  readonly status: number;
  readonly url: URL;
  readonly json: unknown;
  readonly headers: Headers;
}

/** How the OAuth client's requests go out. */
export interface OAuthTransport {
  /** For address literals, and every request when there is no pinned fetch. */
  readonly fetch: typeof fetch;
  /**
   * For host names the policy resolved: connects to the addresses checked. Undefined (an
   * application's own `fetch`, a runtime without Node's http): `fetch` resolves the name again.
   */
  readonly pinned: PinnedFetch | undefined;
}

/** Sends the OAuth client's HTTP requests under one network policy. */
export class OAuthHttp {
  constructor(
    private readonly transport: OAuthTransport,
    readonly policy: NetworkPolicy,
  ) {}

  /** GETs a JSON document, following up to three redirects, each hop checked. */
  async getJson(url: URL, role: string, signal?: AbortSignal): Promise<JsonAnswer> {
    let current = url;
    for (let hop = 0; ; hop++) {
      const addresses = await checkDestination(current, this.policy, role);
      const response = await this.send(
        { url: current, role, addresses },
        { method: 'GET', headers: { accept: 'application/json' }, signal: deadline(signal) },
      );
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => {});
        if (hop >= MAX_REDIRECTS)
          throw new OAuthError('invalid_metadata', `${role} ${redact(url)} redirects too often`);
        current = new URL(location, current);
        continue;
      }
      return this.answer(response, current, role);
    }
  }

  /** POSTs a form or JSON body; a redirect is an error (credentials are never re-sent). */
  async post(
    url: URL,
    role: string,
    request: { body: string; headers: Record<string, string>; signal?: AbortSignal | undefined },
  ): Promise<JsonAnswer> {
    const addresses = await checkDestination(url, this.policy, role);
    const response = await this.send(
      { url, role, addresses },
      {
        method: 'POST',
        headers: { accept: 'application/json', ...request.headers },
        body: request.body,
        signal: deadline(request.signal),
      },
    );
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      throw new OAuthError(
        'invalid_metadata',
        `${role} ${redact(url)} answered a POST with a redirect (HTTP ${response.status}); not followed`,
      );
    }
    return this.answer(response, url, role);
  }

  /** Sends one request (never following a redirect), to the checked addresses when there are. */
  private async send(
    to: { url: URL; role: string; addresses: readonly CheckedAddress[] | undefined },
    request: PinnedRequest,
  ): Promise<Response> {
    const { url, role, addresses } = to;
    const { fetch: fetcher, pinned } = this.transport;
    try {
      if (pinned && addresses) return await pinned(url, request, addresses);
      return await fetcher(url, { ...request, redirect: 'manual' });
    } catch (error) {
      if (
        request.signal.aborted &&
        (request.signal.reason as Error | undefined)?.name !== 'TimeoutError'
      )
        throw error;
      throw new OAuthError(
        role.includes('token') ? 'token_request_failed' : 'invalid_metadata',
        `${role} ${redact(url)} could not be reached: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  private async answer(response: Response, url: URL, role: string): Promise<JsonAnswer> {
    const body = await readBody(response, MAX_OAUTH_RESPONSE_BYTES);
    if (!body.ok)
      throw new OAuthError(
        role.includes('token') ? 'token_request_failed' : 'invalid_metadata',
        body.reason === 'too-large'
          ? `${role} ${redact(url)} answered more than ${MAX_OAUTH_RESPONSE_BYTES} bytes`
          : `${role} ${redact(url)} answered a body that is not UTF-8`,
      );
    let json: unknown;
    try {
      json = body.text === '' ? undefined : JSON.parse(body.text);
    } catch {
      json = undefined;
    }
    return { status: response.status, url, json, headers: response.headers };
  }
}

/** The caller's signal, bounded by the request deadline. */
function deadline(signal: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/**
 * @module What the HTTP client transports ask of an authorization: a header for each request,
 * and new credentials when the server refuses the ones sent. {@link OAuthClient} is toolwire's;
 * an application may plug in its own.
 */

/** Authorization of a client transport's requests. */
export interface HttpAuthorization {
  /** The `Authorization` header for a request to `endpoint`; undefined: send none. */
  header(endpoint: URL, signal?: AbortSignal): Promise<string | undefined>;
  /**
   * A request to `endpoint` was answered 401, or 403 with `insufficient_scope`: get credentials
   * that may do (refresh, authorize, step up). Resolves true when the request should be sent
   * again, false when the answer stands.
   */
  challenged(endpoint: URL, response: Response, context: ChallengeContext): Promise<boolean>;
}

/** Where a challenge stands in its request. */
export interface ChallengeContext {
  /** The challenges this request already met (0 for the first). */
  readonly attempt: number;
  /** Of those, the 403s (step-ups already tried for this request). */
  readonly stepUps: number;
  readonly signal?: AbortSignal | undefined;
}

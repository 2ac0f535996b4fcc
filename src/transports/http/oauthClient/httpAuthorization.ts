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
   * again, false when the answer stands; `attempt` counts the challenges this request already
   * met (0 for the first).
   */
  challenged(
    endpoint: URL,
    response: Response,
    context: { attempt: number; signal?: AbortSignal | undefined },
  ): Promise<boolean>;
}

/**
 * @module The one error of toolwire's OAuth client: whatever stops an authorization (unusable
 * metadata, an address that may not be fetched, a refused or forged redirect, a failed token
 * request, too many step-ups) is an {@link OAuthError} naming why, in OAuth's own terms where
 * there are some.
 */
import { LocalError } from '../jsonrpc/errors.js';

/**
 * Why an authorization failed. The authorization server's own `error` codes (`access_denied`,
 * `invalid_grant`...) pass through as they came.
 */
export type OAuthFailure =
  | 'login_required'
  | 'invalid_metadata'
  | 'resource_mismatch'
  | 'issuer_mismatch'
  | 'insecure_url'
  | 'forbidden_address'
  | 'registration_unavailable'
  | 'registration_failed'
  | 'state_mismatch'
  | 'invalid_redirect'
  | 'token_request_failed'
  | 'step_up_limit'
  | 'unauthorized'
  | 'not_protected'
  | 'insufficient_scope'
  | 'revocation_failed'
  | (string & {});

/** An authorization that could not be obtained (LocalError code `authorization`). */
export class OAuthError extends LocalError {
  override readonly name = 'LocalError';
  /** Why, as a short OAuth-style code. */
  readonly reason: OAuthFailure;
  /** The authorization server concerned, when known. */
  readonly issuer: string | undefined;
  /**
   * With `insufficient_scope`: the scopes an authorization would have to ask for (those held and
   * those the server asked for), space-separated.
   */
  readonly scope: string | undefined;

  constructor(
    reason: OAuthFailure,
    message: string,
    options?: { issuer?: string | undefined; scope?: string | undefined; cause?: unknown },
  ) {
    super(
      'authorization',
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = reason;
    this.issuer = options?.issuer;
    this.scope = options?.scope;
  }
}

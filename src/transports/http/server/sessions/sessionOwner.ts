/**
 * @module Whose an HTTP session is: the principal and, for OAuth, the issuer, subject and client
 * that created it. Only a request whose identity matches on all of them may use the session
 * (another token's holder, even another client of the same user, gets 404). Kept as a small
 * object compared field by field (nothing allocated per request), and written to a cluster's
 * session directory as JSON so an instance adopting the session keeps the whole binding.
 */
import type { Identity } from '../../../../jsonrpc/transport.js';

/** The binding of a session to the identity that created it. */
export interface SessionOwner {
  readonly id: string;
  readonly issuer?: string;
  readonly subject?: string;
  readonly clientId?: string;
}

/** The owner a session created by `identity` gets (undefined: no authentication). */
export function ownerOf(identity: Identity | undefined): SessionOwner | undefined {
  if (identity === undefined) return undefined;
  return {
    id: identity.id,
    ...(identity.issuer !== undefined ? { issuer: identity.issuer } : {}),
    ...(identity.subject !== undefined ? { subject: identity.subject } : {}),
    ...(identity.clientId !== undefined ? { clientId: identity.clientId } : {}),
  };
}

/** True when `identity` may use a session of `owner` (both absent: no authentication). */
export function isOwner(owner: SessionOwner | undefined, identity: Identity | undefined): boolean {
  if (owner === undefined || identity === undefined) return owner === identity;
  return (
    owner.id === identity.id &&
    owner.issuer === identity.issuer &&
    owner.subject === identity.subject &&
    owner.clientId === identity.clientId
  );
}

/** The owner as the session directory stores it (`SessionRecord.owner`). */
export function encodeOwner(owner: SessionOwner | undefined): string | undefined {
  return owner === undefined ? undefined : JSON.stringify(owner);
}

/**
 * The owner a directory record names. A record written before owners were JSON holds the bare
 * principal id: it is read as an owner with that id only (so an OAuth caller, whose identity has
 * more, is not its owner and re-initializes).
 */
export function decodeOwner(stored: string | undefined): SessionOwner | undefined {
  if (stored === undefined) return undefined;
  if (stored.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(stored);
      if (
        typeof value === 'object' &&
        value !== null &&
        typeof (value as SessionOwner).id === 'string'
      ) {
        const { id, issuer, subject, clientId } = value as Record<string, unknown>;
        return {
          id: id as string,
          ...(typeof issuer === 'string' ? { issuer } : {}),
          ...(typeof subject === 'string' ? { subject } : {}),
          ...(typeof clientId === 'string' ? { clientId } : {}),
        };
      }
    } catch {
      // Not JSON after all: a bare id that starts with "{".
    }
  }
  return { id: stored };
}

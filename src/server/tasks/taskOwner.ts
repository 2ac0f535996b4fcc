/**
 * @module Who a task belongs to: the owner a store binds every task to, so that only its
 * requestor sees or changes it. The same for every protocol generation: one identity owns the
 * tasks it created whichever generation it spoke.
 */
import type { Identity } from '../../jsonrpc/transport.js';

/**
 * The owner of tasks created by a caller (the spec's requestor). Authenticated: the identity's
 * id, issuer, subject and client together, the binding an HTTP session has (sessionOwner.ts), so
 * another application of the same user (same issuer and subject, another `client_id`/`azp`) is
 * another owner and sees none of the tasks. An identity that names none of issuer, subject and
 * client (an API key, an application's own identity) is `principal:<id>`, as before. Without
 * authentication: the session.
 */
export function ownerOf(sessionId: string, identity: Identity | undefined): string {
  if (!identity) return `session:${sessionId}`;
  const { id, issuer, subject, clientId } = identity;
  if (issuer === undefined && subject === undefined && clientId === undefined)
    return `principal:${id}`;
  // JSON: no id, issuer, subject and client can spell another four (nor a `principal:` owner).
  return `identity:${JSON.stringify([id, issuer ?? null, subject ?? null, clientId ?? null])}`;
}

/**
 * The owner of a tasks-extension task: the caller's identity, as for 2025 tasks. A 2026 request
 * without authentication has no session to bind to: its tasks belong to every unauthenticated
 * caller, and the task id, 122 random bits, is what keeps them apart (the extension lets a server
 * use task ids as bearer tokens). Serve authenticated callers to bind tasks to people.
 */
export function extensionOwnerOf(identity: Identity | undefined): string {
  return identity === undefined ? 'anonymous' : ownerOf('', identity);
}

/**
 * @module OAuth scopes as toolwire uses them on both sides of the layering: the syntax of a scope
 * token (RFC 6749 §3.3) and whether a caller's {@link Identity} holds every scope in a list (the
 * server hides the tools a caller lacks the scopes for; the HTTP transport answers 403 for them).
 */
import type { Identity } from './transport.js';

/**
 * Why `scope` is not a usable scope token, or undefined: RFC 6749 §3.3 allows printable ASCII
 * except space, `"` and `\`. `offline_access` is refused too: it asks an authorization server for
 * refresh tokens and is never a resource's requirement (MCP 2026-07-28, Refresh Tokens).
 */
export function scopeTokenProblem(scope: unknown): string | undefined {
  if (typeof scope !== 'string' || scope === '') return 'a scope must be a non-empty string';
  if (!/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))
    return `scope ${JSON.stringify(scope)} has a character RFC 6749 does not allow (printable ASCII without space, " and \\)`;
  if (scope === 'offline_access')
    return 'offline_access is not a resource scope (it asks for refresh tokens): leave it out';
  return undefined;
}

/** Why `scopes` is not a list of scope tokens, or undefined (see {@link scopeTokenProblem}). */
export function scopeListProblem(scopes: unknown): string | undefined {
  if (!Array.isArray(scopes)) return 'scopes must be an array of strings';
  for (const scope of scopes as unknown[]) {
    const problem = scopeTokenProblem(scope);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * True when `identity` was granted every scope in `required` (always, for an empty list). A
 * caller without an identity, or whose identity carries no scopes, holds none.
 */
export function hasScopes(identity: Identity | undefined, required: readonly string[]): boolean {
  if (required.length === 0) return true;
  const granted = identity?.scopes;
  if (granted === undefined) return false;
  for (const scope of required) if (!granted.includes(scope)) return false;
  return true;
}

/**
 * @module Which scopes an authorization asks for (the spec's scope selection strategy): the
 * application's own choice, else the challenge's `scope`, else every scope the resource lists in
 * `scopes_supported`, else none (the parameter is omitted). A step-up asks for the union of what
 * the held token has and what the challenge names. `offline_access` is added only when the
 * authorization server lists it, so that a refresh token may be issued.
 */

/** Space-separated scopes as a list, empty strings dropped. */
export function scopeList(scope: string | undefined): string[] {
  return scope ? scope.split(' ').filter((s) => s !== '') : [];
}

/** The scope parameter of an authorization, or undefined to omit it. */
export function selectScope(input: {
  configured: readonly string[] | undefined;
  challenged: string | undefined;
  resourceScopes: readonly string[] | undefined;
  held: string | undefined;
  serverScopes: readonly string[] | undefined;
  offlineAccess: boolean;
}): string | undefined {
  const chosen = new Set<string>(
    input.configured ??
      (input.challenged !== undefined ? scopeList(input.challenged) : (input.resourceScopes ?? [])),
  );
  for (const held of scopeList(input.held)) chosen.add(held);
  if (input.offlineAccess && input.serverScopes?.includes('offline_access'))
    chosen.add('offline_access');
  else chosen.delete('offline_access');
  return chosen.size > 0 ? [...chosen].join(' ') : undefined;
}

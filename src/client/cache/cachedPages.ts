/**
 * @module One session's `tools/list` pages through the client's {@link ResponseCache}: a fresh
 * page is served from it, a fetched one kept as its hints allow, and every page forgotten when the
 * tools changed or the server refused a cursor (caching page: discard all cached pages and
 * re-fetch from the beginning).
 */
import type { CacheContext } from '../../jsonrpc/transport.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { isCacheable, type ResponseCache } from './responseCache.js';

/** The pages of one method of one session, cached when there is a cache. */
export class CachedPages {
  /** The endpoint of the pages cached so far (what `forget` clears). */
  private endpoint: string | undefined;

  constructor(
    private readonly cache: ResponseCache | undefined,
    private readonly method: string,
    /** Where and for whom the session's results may be cached, asked before each lookup. */
    private readonly contextOf: () => Promise<CacheContext>,
  ) {}

  /** The page at `cursor`: fresh from the cache, or fetched (and kept if its hints allow). */
  async page(cursor: string | undefined, fetch: () => Promise<JsonObject>): Promise<JsonObject> {
    const cache = this.cache;
    if (!cache) return fetch();
    const key = cursor ?? '';
    // The context (a digest of the credentials) is computed only when there is something to look
    // up or to keep: a server that sends no cache hints costs its listings nothing here.
    let context = cache.size > 0 ? await this.contextOf() : undefined;
    if (context) {
      this.endpoint = context.endpoint;
      const hit = cache.get({ context, method: this.method, key });
      if (hit) return hit;
    }
    let result: JsonObject;
    try {
      result = await fetch();
    } catch (error) {
      // A cursor the server no longer takes: the cached pages around it are no good either.
      if (cursor !== undefined) this.forget();
      throw error;
    }
    if (isCacheable(result)) {
      context ??= await this.contextOf();
      this.endpoint = context.endpoint;
      cache.put({ context, method: this.method, key }, result);
    }
    return result;
  }

  /** Forgets every cached page of the method at the session's endpoint, for every caller. */
  forget(): void {
    if (this.endpoint !== undefined) this.cache?.invalidate(this.endpoint, this.method);
  }
}

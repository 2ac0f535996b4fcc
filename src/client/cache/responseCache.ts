/**
 * @module The client's cache of results that carry 2026-07-28 cache hints (server/utilities/
 * caching): a result is kept while `now < received + ttlMs`, keyed by the endpoint, the method and
 * the parameters that shape it (a page's cursor). A `public` result may be served to any caller of
 * the endpoint; a `private` one only to the same authorization context (a digest of the
 * credentials the transport sends), never across contexts. Results of round trips
 * (`input_required`, or requests carrying `inputResponses`/`requestState`) never come here. Bounded
 * by entries and by size, least recently used first out. One cache may be shared by several clients (a
 * gateway serving many users): public entries are shared, private ones stay per credential.
 */
import type { CacheContext } from '../../jsonrpc/transport.js';
import type { JsonObject } from '../../jsonrpc/types.js';

/** Options of a {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** Results kept at most; the least recently used goes first. Default 1000. */
  maxEntries?: number;
  /**
   * Their total size at most, counted as the length of their JSON text; the least recently used
   * goes first, and a larger result is not kept. Default 16 MiB (a server's pages cannot fill
   * the client's memory however many it sends).
   */
  maxBytes?: number;
  /** The clock (tests). Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  readonly result: JsonObject;
  /** The length of its JSON text. */
  readonly size: number;
  readonly freshUntil: number;
  readonly endpoint: string;
  readonly method: string;
}

/** What a lookup or a store is about: where, which method, and the parameters that shape it. */
export interface CacheRequest {
  readonly context: CacheContext;
  readonly method: string;
  /** The parameters that shape the result, as one string (a page's cursor; '' for none). */
  readonly key: string;
}

/** The freshness a result's hints give it, in ms; 0 when it must not be kept. */
function freshnessOf(result: JsonObject): number {
  if (result['resultType'] !== undefined && result['resultType'] !== 'complete') return 0;
  const ttl = result['ttlMs'];
  // Absent or negative is 0 (immediately stale), as the caching page says.
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : 0;
}

/** True when a result's hints let it be kept (`ttlMs` > 0, `cacheScope` public or private). */
export function isCacheable(result: JsonObject): boolean {
  const scope = result['cacheScope'];
  return freshnessOf(result) > 0 && (scope === 'public' || scope === 'private');
}

/** Results with cache hints, fresh for their `ttlMs`, shared only as their `cacheScope` allows. */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private bytes = 0;

  constructor(options: ResponseCacheOptions = {}) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 1000);
    this.maxBytes = Math.max(1, options.maxBytes ?? 16 * 1024 * 1024);
    this.now = options.now ?? Date.now;
  }

  /** Entries kept now (fresh or not yet evicted). */
  get size(): number {
    return this.entries.size;
  }

  /** A fresh result for the request (a public one first, then one of the same credentials). */
  get(request: CacheRequest): JsonObject | undefined {
    return this.fresh(keyOf(request, undefined)) ?? this.fresh(keyOf(request, request.context));
  }

  /** Keeps a result whose hints allow it (`ttlMs` > 0, `cacheScope` public or private). */
  put(request: CacheRequest, result: JsonObject): void {
    const ttl = freshnessOf(result);
    const scope = result['cacheScope'];
    if (ttl === 0 || (scope !== 'public' && scope !== 'private')) return;
    const key = keyOf(request, scope === 'private' ? request.context : undefined);
    // The other scope's entry for the same request is no longer what the server says.
    this.remove(keyOf(request, scope === 'private' ? undefined : request.context));
    this.remove(key);
    const size = JSON.stringify(result).length;
    if (size > this.maxBytes) return;
    this.entries.set(key, {
      result,
      size,
      freshUntil: this.now() + ttl,
      endpoint: request.context.endpoint,
      method: request.method,
    });
    this.bytes += size;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.remove(oldest.value);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  /**
   * Forgets every result of `method` from `endpoint`, for every caller: a `list_changed`
   * notification, or a cursor the server no longer accepts.
   */
  invalidate(endpoint: string, method: string): void {
    for (const [key, entry] of this.entries)
      if (entry.endpoint === endpoint && entry.method === method) this.remove(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private fresh(key: string): JsonObject | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() >= entry.freshUntil) {
      this.bytes -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used: last out
    return entry.result;
  }
}

/** The entry's key: public entries have no credential part. */
function keyOf(request: CacheRequest, privateTo: CacheContext | undefined): string {
  return JSON.stringify([
    request.context.endpoint,
    request.method,
    request.key,
    privateTo === undefined ? null : privateTo.credential,
  ]);
}

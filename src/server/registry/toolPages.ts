/**
 * @module The pages of `tools/list`. When what a caller sees does not depend on who asks (no
 * visibility hook, no tool needing scopes), every caller of a revision sees the same page, so it
 * is built, wrapped in its revision's envelope and serialised once ({@link RawJson}), then reused
 * until the registry changes: serialising a thousand definitions was most of the cost of
 * answering. A page that depends on the caller is built per request, and in 2026 marked
 * `cacheScope: "private"`.
 */
import type { Identity } from '../../jsonrpc/transport.js';
import { RawJson } from '../../jsonrpc/rawJson.js';
import type { CacheHints } from '../../protocol/eras/era.js';
import type { ListToolsResult } from '../../protocol/types.js';
import type { SessionPort } from '../toolContext.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { projectedDefinition, type ToolEntry } from './toolDefinition.js';
import type { ToolRegistry } from './toolRegistry.js';

/** What the pages are built from. */
export interface ToolPagesOptions {
  readonly registry: ToolRegistry;
  readonly pageSize: number;
  /** How long clients of 2026 may cache a page (the scope turns private when pages depend on the caller). */
  readonly cacheHints: CacheHints;
  /** True when a visibility hook decides what each caller sees. */
  readonly callerDependent: boolean;
  /** How many times the registry has changed: a cached page is valid while this stays. */
  changeCount(): number;
  /** Whether `entry` is visible to this caller. */
  isVisible(entry: ToolEntry, session: SessionPort, identity: Identity | undefined): boolean;
}

/** Who asks for a page. */
export interface PageCaller {
  readonly session: SessionPort;
  readonly identity: Identity | undefined;
}

/** A server's `tools/list` pages, cached while the registry does not change. */
export class ToolPages {
  private readonly pages = new Map<string, RawJson<ListToolsResult>>();
  private pagesAt = -1;
  private readonly privateHints: CacheHints;

  constructor(private readonly options: ToolPagesOptions) {
    this.privateHints = { ttlMs: options.cacheHints.ttlMs, cacheScope: 'private' };
  }

  /** The page after `cursor` for this caller. */
  list(caller: PageCaller, cursor: string | undefined): ListToolsResult | RawJson<ListToolsResult> {
    const { registry } = this.options;
    const after = cursor === undefined ? 0 : decodeCursor(cursor, registry.highestSeq);
    if (this.options.callerDependent || registry.anyScoped)
      return this.build(after, caller, this.privateHints);
    const changes = this.options.changeCount();
    if (this.pagesAt !== changes) {
      this.pages.clear();
      this.pagesAt = changes;
    }
    const key = `${caller.session.profile.revision} ${after}`;
    let page = this.pages.get(key);
    if (!page) {
      if (this.pages.size >= 256) this.pages.clear();
      page = new RawJson(this.build(after, caller, this.options.cacheHints));
      this.pages.set(key, page);
    }
    return page;
  }

  private build(after: number, caller: PageCaller, hints: CacheHints): ListToolsResult {
    const { session, identity } = caller;
    const profile = session.profile;
    const page = this.options.registry.page(after, this.options.pageSize, (e) =>
      this.options.isVisible(e, session, identity),
    );
    const tools = page.entries.map((e) => projectedDefinition(e, profile));
    const result: ListToolsResult =
      page.nextAfter === undefined
        ? { tools }
        : { tools, nextCursor: encodeCursor(page.nextAfter) };
    return profile.complete(result, hints);
  }
}

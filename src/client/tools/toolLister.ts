/**
 * @module Walking `tools/list` pages: all at once or one page at a time, guarding against servers
 * whose cursors repeat or never end, and against duplicate names across pages.
 */
import { LocalError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { parseListToolsResult } from '../../protocol/params.js';
import type { ListToolsResult, Tool } from '../../protocol/types.js';

/** Fetches one page given a cursor. */
export type PageFetcher = (
  cursor: string | undefined,
  signal: AbortSignal | undefined,
) => Promise<JsonObject>;

/** Options of a walk over the pages. */
export interface WalkOptions {
  signal?: AbortSignal;
  /** Start after this cursor (page-by-page iteration). */
  cursor?: string;
  /** Stop with an error after this many pages. Default 1000. */
  maxPages?: number;
}

/** Yields page after page, stopping with a `pagination-loop` LocalError on a repeated cursor. */
export async function* walkPages(
  fetch: PageFetcher,
  onSkip: (problem: string) => void,
  options: WalkOptions = {},
): AsyncGenerator<ListToolsResult> {
  const maxPages = options.maxPages ?? 1000;
  const seen = new Set<string>();
  let cursor = options.cursor;
  for (let pages = 0; ; pages++) {
    if (pages >= maxPages) {
      throw new LocalError('pagination-loop', `tools/list did not end within ${maxPages} pages`);
    }
    const page = parseListToolsResult(await fetch(cursor, options.signal), onSkip);
    yield page;
    if (page.nextCursor === undefined) return;
    if (seen.has(page.nextCursor) || page.nextCursor === cursor) {
      throw new LocalError(
        'pagination-loop',
        'tools/list returned a cursor it had already returned',
      );
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/** Walks every page and returns all tools; a name seen twice keeps its first definition. */
export async function listAllTools(
  fetch: PageFetcher,
  onSkip: (problem: string) => void,
  options: WalkOptions = {},
): Promise<Tool[]> {
  const byName = new Map<string, Tool>();
  for await (const page of walkPages(fetch, onSkip, options)) {
    for (const tool of page.tools) {
      if (byName.has(tool.name))
        onSkip(`tool "${tool.name}" was listed twice; the first definition is kept`);
      else byName.set(tool.name, tool);
    }
  }
  return [...byName.values()];
}

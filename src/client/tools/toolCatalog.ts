/**
 * @module The client's cache of the server's tools: the last complete listing, trusted (not
 * listed again for a name it lacks) while the server promises to announce changes, and refreshed
 * once at a time when `list_changed` arrives.
 */
import type { Tool } from '../../protocol/types.js';

/** What the catalog needs of the client. */
export interface CatalogHost {
  /** Lists every tool again (and stores the listing here through {@link ToolCatalog.store}). */
  readonly relist: () => Promise<Tool[]>;
  /** Called with the fresh tool list after a `list_changed` refresh. */
  readonly onToolsChanged: (tools: Tool[]) => void;
  /** A refresh that failed. */
  readonly report: (error: Error) => void;
}

/** The tools of the last complete listing. */
export class ToolCatalog {
  private cache: Map<string, Tool> | undefined;
  private trusted = false;
  private refreshing: Promise<void> | undefined;
  private refreshAgain = false;

  constructor(private readonly host: CatalogHost) {}

  /** The tools from the last complete listing, if any. */
  get cached(): Tool[] | undefined {
    return this.cache ? [...this.cache.values()] : undefined;
  }

  /** Keeps a complete listing; `trusted` when the server announces changes. */
  store(tools: Tool[], trusted: boolean): void {
    this.cache = new Map(tools.map((t) => [t.name, t]));
    this.trusted = trusted;
  }

  /** Forgets the listing (the connection ended). */
  clear(): void {
    this.cache = undefined;
  }

  /**
   * The tool's definition, listing when it is not cached. A trusted listing is not listed again
   * for a name it lacks, so a missing tool does not cost a listing on every call.
   */
  async definitionOf(name: string): Promise<Tool | undefined> {
    const cached = this.cache?.get(name);
    if (cached) return cached;
    if (!this.cache || !this.trusted) await this.host.relist();
    return this.cache?.get(name);
  }

  /** The server said its tools changed: distrust the listing and list again (once at a time). */
  changed(): void {
    this.trusted = false;
    this.refresh();
  }

  private refresh(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.host
      .relist()
      .then((tools) => this.host.onToolsChanged(tools))
      .catch((error: unknown) =>
        this.host.report(error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => {
        this.refreshing = undefined;
        if (this.refreshAgain) {
          this.refreshAgain = false;
          this.refresh();
        }
      });
  }
}

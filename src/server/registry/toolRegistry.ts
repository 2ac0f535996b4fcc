/**
 * @module The live set of tools: add, remove, enable, disable and update while clients are
 * connected. Tools are kept in registration order (see cursor.ts) and every change is announced
 * to listeners, which the server coalesces into one `list_changed` per burst.
 */
import type { OutputSchemaInput, SchemaInput } from './toolSchema.js';
import {
  compileTool,
  type AnyToolHandler,
  type ToolConfig,
  type ToolEntry,
} from './toolDefinition.js';

/** Changes to a registered tool; unspecified fields keep their value. */
export type ToolUpdate = ToolConfig<SchemaInput | undefined, OutputSchemaInput | undefined> & {
  /** Rename the tool (it then lists after every tool registered before the rename). */
  name?: string;
  handler?: AnyToolHandler;
};

/** The handle `registerTool` returns. */
export interface RegisteredTool {
  /** The current name. */
  readonly name: string;
  readonly enabled: boolean;
  /** True once removed; every method then throws. */
  readonly removed: boolean;
  /** Lists the tool again and lets it be called. */
  enable(): void;
  /** Hides the tool: not listed, and calls answer "unknown tool". */
  disable(): void;
  /** Removes the tool for good. */
  remove(): void;
  /**
   * Changes the definition or handler; schemas are recompiled once, here. Clients are told
   * (`list_changed`) only when the listed definition changes.
   */
  update(changes: ToolUpdate): void;
}

type StoredConfig = ToolConfig<SchemaInput | undefined, OutputSchemaInput | undefined>;

interface Slot {
  entry: ToolEntry;
  config: StoredConfig;
}

/** A page of tools and where the next one starts. */
export interface ToolPage {
  entries: ToolEntry[];
  /** The sequence number to continue after, when more tools may follow. */
  nextAfter: number | undefined;
}

/** The registry; one per server. */
export class ToolRegistry {
  private readonly ordered: Slot[] = [];
  private readonly byName = new Map<string, Slot>();
  private lastSeq = 0;
  private scoped = false;
  private readonly listeners = new Set<() => void>();

  /** Number of registered tools, enabled or not. */
  get size(): number {
    return this.ordered.length;
  }

  /**
   * True when a registered tool (enabled or not) needs scopes: listings then depend on the
   * caller. Kept up to date on every change (a change of scopes is one).
   */
  get anyScoped(): boolean {
    return this.scoped;
  }

  /** The highest sequence number ever issued. */
  get highestSeq(): number {
    return this.lastSeq;
  }

  /** Calls `listener` after every change; returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Registers a tool. Throws on an invalid declaration or a name already in use. */
  register(name: string, config: StoredConfig, handler: AnyToolHandler): RegisteredTool {
    if (this.byName.has(name)) throw new TypeError(`A tool named "${name}" is already registered`);
    const slot: Slot = {
      entry: { ...compileTool(name, config, handler), seq: ++this.lastSeq },
      config,
    };
    this.ordered.push(slot);
    this.byName.set(name, slot);
    // A registration can only add scopes: no scan of every tool (registering n tools stays O(n)).
    this.changed(slot.entry.scopes !== undefined || this.scoped);
    return this.handleFor(slot);
  }

  /** The entry named `name`, enabled or not. */
  get(name: string): ToolEntry | undefined {
    return this.byName.get(name)?.entry;
  }

  /** All entries in registration order. */
  entries(): ToolEntry[] {
    return this.ordered.map((s) => s.entry);
  }

  /**
   * Up to `limit` enabled entries that `include` accepts, starting after sequence number
   * `after`. `nextAfter` is set only when at least one more such entry exists.
   */
  page(after: number, limit: number, include: (entry: ToolEntry) => boolean): ToolPage {
    const entries: ToolEntry[] = [];
    for (let i = this.firstIndexAfter(after); i < this.ordered.length; i++) {
      const entry = (this.ordered[i] as Slot).entry;
      if (!entry.enabled || !include(entry)) continue;
      if (entries.length === limit) {
        const last = entries[entries.length - 1] as ToolEntry;
        return { entries, nextAfter: last.seq };
      }
      entries.push(entry);
    }
    return { entries, nextAfter: undefined };
  }

  private firstIndexAfter(seq: number): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.ordered[mid] as Slot).entry.seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private handleFor(slot: Slot): RegisteredTool {
    const byName = this.byName;
    const live = (): Slot => {
      if (byName.get(slot.entry.name) !== slot)
        throw new Error(`Tool "${slot.entry.name}" was removed`);
      return slot;
    };
    return {
      get name() {
        return slot.entry.name;
      },
      get enabled() {
        return slot.entry.enabled;
      },
      get removed() {
        return byName.get(slot.entry.name) !== slot;
      },
      enable: () => this.setEnabled(live(), true),
      disable: () => this.setEnabled(live(), false),
      remove: () => this.remove(live()),
      update: (changes) => this.update(live(), changes),
    };
  }

  private setEnabled(slot: Slot, enabled: boolean): void {
    if (slot.entry.enabled === enabled) return;
    slot.entry.enabled = enabled;
    this.changed(this.scoped);
  }

  private remove(slot: Slot): void {
    this.byName.delete(slot.entry.name);
    this.ordered.splice(this.ordered.indexOf(slot), 1);
    this.changed();
  }

  private update(slot: Slot, changes: ToolUpdate): void {
    const { name: newName, handler, ...configChanges } = changes;
    const name = newName ?? slot.entry.name;
    const renamed = name !== slot.entry.name;
    if (renamed && this.byName.has(name))
      throw new TypeError(`A tool named "${name}" is already registered`);
    const config: StoredConfig = { ...slot.config, ...configChanges };
    const compiled = compileTool(name, config, handler ?? slot.entry.handler);
    compiled.enabled = slot.entry.enabled;
    // Clients see definitions only: a new handler, deadline or rate limit, or an update that
    // repeats what is there, changes nothing they can list, so it sends no list_changed. New
    // scopes change who sees the tool, so they do.
    const listedChange =
      renamed ||
      JSON.stringify(compiled.definition) !== JSON.stringify(slot.entry.definition) ||
      String(compiled.scopes) !== String(slot.entry.scopes);
    if (!listedChange) {
      slot.entry = { ...compiled, seq: slot.entry.seq, projections: slot.entry.projections };
      slot.config = config;
      return;
    }
    if (renamed) {
      this.byName.delete(slot.entry.name);
      this.ordered.splice(this.ordered.indexOf(slot), 1);
      slot.entry = { ...compiled, seq: ++this.lastSeq };
      this.ordered.push(slot);
      this.byName.set(name, slot);
    } else {
      slot.entry = { ...compiled, seq: slot.entry.seq };
    }
    slot.config = config;
    this.changed();
  }

  /** Tells the listeners; `scoped` says whether any tool has scopes now (scanned if not given). */
  private changed(scoped?: boolean): void {
    this.scoped = scoped ?? this.ordered.some((s) => s.entry.scopes !== undefined);
    for (const listener of this.listeners) listener();
  }
}

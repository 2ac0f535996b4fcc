/**
 * @module Where the CLI keeps "always allow" decisions: `approvals.json` beside the credentials
 * file (`$XDG_CONFIG_HOME/toolwire/`), readable by the user only and replaced atomically, like it.
 * Decisions are kept per server by its identity (serverIdentity.ts: its URL, or the real paths of
 * the program and files it runs), never by the name a server gives itself, and per tool with the
 * definition's fingerprint and the definition itself, so a changed definition is shown as a
 * change. The file also keeps which servers the person trusts (their annotations decide which
 * tools are confirmed), as the console's "trust its annotations" and `approvals trust` set it.
 */
import { dirname, join } from 'node:path';
import type { ApprovalStore, ApprovedDefinition } from '../client.js';
import type { Tool } from '../index.js';
import {
  CredentialsFileError,
  defaultCredentialsPath,
  readCredentialsText,
  writeCredentialsText,
} from '../oauthClient/credentialsFile.js';
import { withCredentialsLock } from '../oauthClient/credentialsLock.js';

/** The file's contents. */
export interface ApprovalsDocument {
  version: 1;
  servers: Record<string, Record<string, ApprovedDefinition>>;
  /** The servers whose annotations the person trusts, with since when (ISO 8601). */
  trusted?: Record<string, { since: string }>;
}

/** The default approvals file. */
export function defaultApprovalsPath(): string {
  return join(dirname(defaultCredentialsPath()), 'approvals.json');
}

function isApproved(value: unknown): value is ApprovedDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['fingerprint'] === 'string' &&
    typeof v['approvedAt'] === 'string' &&
    typeof v['definition'] === 'object' &&
    v['definition'] !== null &&
    typeof (v['definition'] as Tool).name === 'string'
  );
}

/**
 * A dictionary keyed by names a server chose: no prototype, so a tool named `__proto__` is kept
 * and one named `constructor` is not found where none was allowed.
 */
function dictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The updates under way, per file: one at a time, each on the result of the one before. */
const updating = new Map<string, Promise<void>>();

/** The approvals file: read and written whole, each change on a fresh read. */
export class ApprovalsFile {
  constructor(readonly path: string = defaultApprovalsPath()) {}

  /** Every server's decisions. */
  async read(): Promise<ApprovalsDocument> {
    const text = await readCredentialsText(this.path);
    if (text === undefined) return { version: 1, servers: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new CredentialsFileError(this.path, 'corrupt', {
        message: `the approvals file ${this.path} is not JSON: remove it (toolwire will ask again) or repair it`,
        cause: error,
      });
    }
    const doc = parsed as Partial<ApprovalsDocument>;
    if (doc.version !== 1 || typeof doc.servers !== 'object' || doc.servers === null)
      throw new CredentialsFileError(this.path, 'corrupt', {
        message: `the approvals file ${this.path} is not one toolwire wrote: remove it or repair it`,
      });
    const servers = dictionary<Record<string, ApprovedDefinition>>();
    for (const [server, tools] of Object.entries(doc.servers)) {
      if (typeof tools !== 'object' || tools === null) continue;
      const kept = dictionary<ApprovedDefinition>();
      for (const [tool, approved] of Object.entries(tools))
        if (isApproved(approved)) kept[tool] = approved;
      servers[server] = kept;
    }
    const trusted = dictionary<{ since: string }>();
    if (typeof doc.trusted === 'object' && doc.trusted !== null)
      for (const [server, entry] of Object.entries(doc.trusted))
        if (typeof (entry as { since?: unknown } | null)?.since === 'string')
          trusted[server] = { since: entry.since };
    return { version: 1, servers, ...(Object.keys(trusted).length > 0 ? { trusted } : {}) };
  }

  /**
   * Applies a change to the file (read, change, written atomically), holding its lock: two "always
   * allow" answers given together (in this process, or by a CLI and a console at once) would
   * otherwise both read the file before either wrote it, and one would be lost. Changes made in
   * this process also wait for each other before taking the lock.
   */
  update(change: (doc: ApprovalsDocument) => boolean): Promise<void> {
    const run = (): Promise<void> =>
      withCredentialsLock(this.path, async () => {
        const doc = await this.read();
        if (change(doc)) await writeCredentialsText(this.path, `${JSON.stringify(doc, null, 2)}\n`);
      });
    const before = updating.get(this.path) ?? Promise.resolve();
    const mine = before.then(run, run);
    const settled = mine.then(
      () => {},
      () => {},
    );
    updating.set(this.path, settled);
    void settled.then(() => {
      if (updating.get(this.path) === settled) updating.delete(this.path);
    });
    return mine;
  }

  /** Whether the person trusts the annotations of `server` (an identity). */
  async isTrusted(server: string): Promise<boolean> {
    return (await this.read()).trusted?.[server] !== undefined;
  }

  /** Marks `server` trusted, or not; false when it already was as asked. */
  async setTrusted(server: string, trusted: boolean): Promise<boolean> {
    let changed = false;
    await this.update((doc) => {
      const all = (doc.trusted ??= dictionary());
      if ((all[server] !== undefined) === trusted) return false;
      if (trusted) all[server] = { since: new Date().toISOString() };
      else delete all[server];
      if (Object.keys(all).length === 0) delete doc.trusted;
      changed = true;
      return true;
    });
    return changed;
  }

  /** The decisions of one server, as the client's approval store. */
  forServer(server: string): ApprovalStore {
    return {
      get: async (tool) => (await this.read()).servers[server]?.[tool],
      entries: async () => Object.entries((await this.read()).servers[server] ?? {}),
      set: (tool, approved) =>
        this.update((doc) => {
          (doc.servers[server] ??= dictionary())[tool] = approved;
          return true;
        }),
      delete: (tool) =>
        this.update((doc) => {
          const tools = doc.servers[server];
          if (!tools?.[tool]) return false;
          delete tools[tool];
          if (Object.keys(tools).length === 0) delete doc.servers[server];
          return true;
        }),
    };
  }
}

/**
 * @module Several Streamable HTTP handlers sharing sessions inside one process: an in-memory
 * session directory, bus and event store with the semantics of the Redis ones. For tests of
 * multi-instance behaviour, and a reference for other implementations of the cluster interfaces.
 */
import type { JsonObject } from '../../../../../jsonrpc/types.js';
import type {
  ClusterBus,
  ClusterMessage,
  HttpCluster,
  SessionDirectory,
  SessionRecord,
} from './cluster.js';
import { MemoryEventStore } from '../memoryEventStore.js';
import { randomToken } from '../httpSession.js';

/** Sessions in memory, expiring when idle. */
export class MemorySessionDirectory implements SessionDirectory {
  private readonly records = new Map<string, { record: SessionRecord; expiresAt: number }>();

  async create(options: {
    sessionId: string;
    record: SessionRecord;
    ttlMs: number;
  }): Promise<void> {
    if (this.live(options.sessionId)) throw new Error(`Session ${options.sessionId} exists`);
    this.records.set(options.sessionId, {
      record: structuredClone(options.record),
      expiresAt: Date.now() + options.ttlMs,
    });
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const entry = this.live(sessionId);
    return entry && structuredClone(entry.record);
  }

  async update(options: { sessionId: string; state: JsonObject }): Promise<boolean> {
    const entry = this.live(options.sessionId);
    if (!entry) return false;
    entry.record = { owner: entry.record.owner, state: structuredClone(options.state) };
    return true;
  }

  async touch(options: { sessionId: string; ttlMs: number }): Promise<void> {
    const entry = this.live(options.sessionId);
    if (entry) entry.expiresAt = Math.max(entry.expiresAt, Date.now() + options.ttlMs);
  }

  async delete(sessionId: string): Promise<boolean> {
    return this.records.delete(sessionId);
  }

  private live(sessionId: string): { record: SessionRecord; expiresAt: number } | undefined {
    const entry = this.records.get(sessionId);
    if (entry && entry.expiresAt <= Date.now()) {
      this.records.delete(sessionId);
      return undefined;
    }
    return entry;
  }
}

/** Instances of one in-process cluster. */
export class MemoryClusterHub {
  readonly sessions: MemorySessionDirectory = new MemorySessionDirectory();
  readonly events: MemoryEventStore = new MemoryEventStore();
  private readonly listeners = new Map<string, Set<(message: ClusterMessage) => void>>();

  /** A new instance's view of the cluster. */
  instance(): HttpCluster {
    const instanceId = randomToken(6);
    const bus: ClusterBus = {
      instanceId,
      publish: async (to, message) => {
        // Asynchronous like a real bus: the sender's code runs on before anyone receives it.
        const copy = structuredClone(message);
        for (const [id, set] of this.listeners) {
          if (to === 'others' ? id === instanceId : id !== to) continue;
          for (const listener of set) queueMicrotask(() => listener(copy));
        }
      },
      subscribe: async (listener) => {
        let set = this.listeners.get(instanceId);
        if (!set) this.listeners.set(instanceId, (set = new Set()));
        set.add(listener);
        return () => set.delete(listener);
      },
    };
    return { sessions: this.sessions, bus, events: this.events };
  }
}

/**
 * @module SSE events in Redis, so a stream dropped on one instance resumes on any other. Per
 * stream: the list of its events (`P ev:<stream>`, each `<event id>\n<json>`), a hash with its
 * session, whether it ended and the bytes of its notifications (`P evm:<stream>`), the latest
 * progress entry per token (`P evp:<stream>`), its other notifications in order (`P evo:<stream>`),
 * and a channel (`P evc:<stream>`) announcing each new event to instances following the stream;
 * per session, the set of its streams (`P evs:<session>`). Everything expires a while after the
 * stream's last event.
 *
 * The bounds are those of the memory store (boundedEvents.ts), applied in the append script:
 * responses and requests are always kept; a progress notification replaces the one stored for
 * its token; other notifications are kept up to a count and a size, the oldest dropped first.
 */
import { PROGRESS } from '../jsonrpc/methods.js';
import type { JsonRpcMessage } from '../jsonrpc/types.js';
import type { SharedEventStore } from '../transports/http/server/sessions/cluster/cluster.js';
import {
  parseEventId,
  type Replay,
  type StoredEvent,
} from '../transports/http/server/sessions/eventStore.js';
import type { RedisChannels } from './redisChannels.js';
import type { StoreConnection } from './redisConnection.js';
import { RedisScript } from './redisScript.js';

/** Options of the Redis event store. */
export interface RedisEventStoreOptions {
  /**
   * Most notifications (other than progress) kept per stream, the oldest dropped first; responses
   * and requests are always kept, progress one per token. Default 1000.
   */
  maxEventsPerStream?: number;
  /** Most bytes of those notifications kept per stream. Default 1 MiB. */
  maxBytesPerStream?: number;
  /** A stream not written to for this long is forgotten. Default 10 minutes. */
  streamTtlMs?: number;
}

/** Published on a stream's channel when it ends (an event always starts with an id with ':'). */
const END = '!end';

/**
 * KEYS: list, meta, session set, progress hash, notification list. ARGV: event, session id, max
 * notifications, ttl, channel, stream id, tier (k: keep, p: progress, o: other), progress token,
 * max notification bytes. Entries are unique (they start with the event id), so LREM finds one.
 */
const APPEND = new RedisScript(`
local entry = ARGV[1]
local tier = ARGV[7]
if tier == 'p' then
  local previous = redis.call('HGET', KEYS[4], ARGV[8])
  if previous then redis.call('LREM', KEYS[1], 1, previous) end
  redis.call('HSET', KEYS[4], ARGV[8], entry)
end
redis.call('RPUSH', KEYS[1], entry)
if tier == 'o' then
  redis.call('RPUSH', KEYS[5], entry)
  local bytes = redis.call('HINCRBY', KEYS[2], 'nbytes', #entry)
  -- Progress entries count towards the cap but are dropped last (one per token: never here).
  local progress = redis.call('HLEN', KEYS[4])
  while redis.call('LLEN', KEYS[5]) + progress > tonumber(ARGV[3]) or bytes > tonumber(ARGV[9]) do
    local oldest = redis.call('LPOP', KEYS[5])
    if not oldest then break end
    redis.call('LREM', KEYS[1], 1, oldest)
    bytes = redis.call('HINCRBY', KEYS[2], 'nbytes', -#oldest)
  end
end
redis.call('HSETNX', KEYS[2], 'session', ARGV[2])
redis.call('SADD', KEYS[3], ARGV[6])
for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
redis.call('PUBLISH', ARGV[5], entry)
return 1
`);

/** KEYS: meta, session set. ARGV: session id, ttl, stream id. Records a stream before its events. */
const OPEN_STREAM = new RedisScript(`
redis.call('HSETNX', KEYS[1], 'session', ARGV[1])
redis.call('SADD', KEYS[2], ARGV[3])
for i = 1, 2 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return 1
`);

/** KEYS: meta. ARGV: channel, end marker. Marks a known stream ended and tells its followers. */
const END_STREAM = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'ended', '1') end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1
`);

/** KEYS: list, meta, progress hash, notification list. ARGV: prefix, stream id, end marker. */
const DROP_STREAM = new RedisScript(`
local session = redis.call('HGET', KEYS[2], 'session')
if session then redis.call('SREM', ARGV[1] .. 'evs:' .. session, ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('PUBLISH', ARGV[1] .. 'evc:' .. ARGV[2], ARGV[3])
return 1
`);

/** KEYS: session set. ARGV: prefix, end marker. Forgets every stream of a session. */
const DROP_SESSION = new RedisScript(`
for _, stream in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', ARGV[1] .. 'ev:' .. stream, ARGV[1] .. 'evm:' .. stream,
    ARGV[1] .. 'evp:' .. stream, ARGV[1] .. 'evo:' .. stream)
  redis.call('PUBLISH', ARGV[1] .. 'evc:' .. stream, ARGV[2])
end
redis.call('DEL', KEYS[1])
return 1
`);

/**
 * How the append script bounds an event: `k` kept (a response or request), `p` a progress
 * notification (the latest per token kept), `o` another notification (capped).
 */
function tierOf(message: JsonRpcMessage): { tier: 'k' | 'p' | 'o'; token: string } {
  if (!('method' in message) || 'id' in message) return { tier: 'k', token: '' };
  if (message.method === PROGRESS) {
    const token = message.params?.['progressToken'];
    if (typeof token === 'string' || typeof token === 'number')
      return { tier: 'p', token: `${typeof token}:${token}` };
  }
  return { tier: 'o', token: '' };
}

interface ParsedEvent extends StoredEvent {
  readonly seq: number;
}

function parseStored(value: string): ParsedEvent | undefined {
  const newline = value.indexOf('\n');
  if (newline <= 0) return undefined;
  const id = value.slice(0, newline);
  const seq = parseEventId(id)?.seq;
  if (seq === undefined) return undefined;
  try {
    return { id, seq, message: JSON.parse(value.slice(newline + 1)) as JsonRpcMessage };
  } catch {
    return undefined;
  }
}

/** The Redis event store. */
export class RedisEventStore implements SharedEventStore {
  private readonly maxEvents: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;

  constructor(
    private readonly connection: StoreConnection,
    private readonly channels: RedisChannels,
    options: RedisEventStoreOptions = {},
  ) {
    this.maxEvents = Math.max(1, Math.floor(options.maxEventsPerStream ?? 1000));
    this.maxBytes = Math.max(1024, Math.floor(options.maxBytesPerStream ?? 1024 * 1024));
    this.ttlMs = Math.max(1000, Math.floor(options.streamTtlMs ?? 10 * 60_000));
  }

  private key(kind: 'ev' | 'evm' | 'evs' | 'evc' | 'evp' | 'evo', id: string): string {
    return `${this.connection.prefix}${kind}:${id}`;
  }

  async append(event: {
    streamId: string;
    sessionId: string;
    eventId: string;
    message: JsonRpcMessage;
    data?: string;
  }): Promise<void> {
    if (parseEventId(event.eventId) === undefined)
      throw new RangeError(`Malformed event id ${event.eventId}`);
    const { tier, token } = tierOf(event.message);
    await APPEND.run(
      this.connection.redis,
      [
        this.key('ev', event.streamId),
        this.key('evm', event.streamId),
        this.key('evs', event.sessionId),
        this.key('evp', event.streamId),
        this.key('evo', event.streamId),
      ],
      [
        `${event.eventId}\n${event.data ?? JSON.stringify(event.message)}`,
        event.sessionId,
        this.maxEvents,
        this.ttlMs,
        this.key('evc', event.streamId),
        event.streamId,
        tier,
        token,
        this.maxBytes,
      ],
    );
  }

  async openStream(stream: { streamId: string; sessionId: string }): Promise<void> {
    await OPEN_STREAM.run(
      this.connection.redis,
      [this.key('evm', stream.streamId), this.key('evs', stream.sessionId)],
      [stream.sessionId, this.ttlMs, stream.streamId],
    );
  }

  async endStream(streamId: string): Promise<void> {
    await END_STREAM.run(
      this.connection.redis,
      [this.key('evm', streamId)],
      [this.key('evc', streamId), END],
    );
  }

  async replayAfter(lastEventId: string): Promise<Replay | undefined> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return undefined;
    const stored = await this.read(parsed.streamId);
    if (!stored) return undefined;
    return {
      streamId: parsed.streamId,
      sessionId: stored.sessionId,
      events: stored.events
        .filter((e) => e.seq > parsed.seq)
        .map(({ id, message }) => ({ id, message })),
    };
  }

  async follow(options: {
    lastEventId: string;
    onEvent: (event: StoredEvent) => void;
    onEnd: () => void;
  }): Promise<{ sessionId: string; stop: () => void } | undefined> {
    const parsed = parseEventId(options.lastEventId);
    if (!parsed) return undefined;
    // Listen first, then read: an event appended in between arrives both ways and is
    // delivered once (by sequence); one appended before the read is in the list.
    let delivered = parsed.seq;
    let replayed = false;
    let done = false;
    const early: string[] = [];
    const finish = (): void => {
      if (done) return;
      done = true;
      stopListening();
      options.onEnd();
    };
    const onPayload = (payload: string): void => {
      if (done) return;
      if (!replayed) {
        early.push(payload);
        return;
      }
      if (payload === END) return finish();
      const event = parseStored(payload);
      if (!event || event.seq <= delivered) return;
      delivered = event.seq;
      options.onEvent({ id: event.id, message: event.message });
    };
    const stopListening = await this.channels.listen(this.key('evc', parsed.streamId), onPayload);
    let stored;
    try {
      stored = await this.read(parsed.streamId);
    } catch (error) {
      stopListening();
      throw error;
    }
    if (!stored) {
      stopListening();
      return undefined;
    }
    for (const event of stored.events) {
      if (event.seq <= delivered) continue;
      delivered = event.seq;
      options.onEvent({ id: event.id, message: event.message });
    }
    replayed = true;
    if (stored.ended) finish();
    for (const payload of early.splice(0)) onPayload(payload);
    return {
      sessionId: stored.sessionId,
      stop: () => {
        done = true;
        stopListening();
      },
    };
  }

  async dropStream(streamId: string): Promise<void> {
    await DROP_STREAM.run(
      this.connection.redis,
      [
        this.key('ev', streamId),
        this.key('evm', streamId),
        this.key('evp', streamId),
        this.key('evo', streamId),
      ],
      [this.connection.prefix, streamId, END],
    );
  }

  async dropSession(sessionId: string): Promise<void> {
    await DROP_SESSION.run(
      this.connection.redis,
      [this.key('evs', sessionId)],
      [this.connection.prefix, END],
    );
  }

  /** A stream's events in order, its session, and whether it ended; undefined when unknown. */
  private async read(
    streamId: string,
  ): Promise<{ sessionId: string; ended: boolean; events: ParsedEvent[] } | undefined> {
    const replies = await this.connection.redis
      .multi()
      .lrange(this.key('ev', streamId), 0, -1)
      .hgetall(this.key('evm', streamId))
      .exec();
    const [values, meta] = (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    }) as [string[] | undefined, Record<string, string> | undefined];
    const sessionId = meta?.['session'];
    if (sessionId === undefined) return undefined;
    const events = (values ?? []).flatMap((v) => parseStored(v) ?? []);
    // Appends from one instance arrive in order, but a script reloaded after a Redis restart
    // can let two of them swap: replay by sequence.
    events.sort((a, b) => a.seq - b.seq);
    return { sessionId, ended: meta?.['ended'] === '1', events };
  }
}

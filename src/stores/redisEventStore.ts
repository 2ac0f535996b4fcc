/**
 * @module SSE events in Redis, so a stream dropped on one instance resumes on any other. Per
 * stream: a capped list of events (`P ev:<stream>`, each `<event id>\n<json>`), a hash with its
 * session and whether it ended (`P evm:<stream>`), and a channel (`P evc:<stream>`) announcing
 * each new event to instances following the stream; per session, the set of its streams
 * (`P evs:<session>`). Everything expires a while after the stream's last event.
 */
import type { JsonRpcMessage } from '../jsonrpc/types.js';
import type { SharedEventStore } from '../transports/http/cluster.js';
import { parseEventId, type Replay, type StoredEvent } from '../transports/http/eventStore.js';
import type { RedisChannels } from './redisChannels.js';
import type { StoreConnection } from './redisConnection.js';
import { RedisScript } from './redisScript.js';

/** Options of the Redis event store. */
export interface RedisEventStoreOptions {
  /** Most events kept per stream (a very late resume misses older ones). Default 1000. */
  maxEventsPerStream?: number;
  /** A stream not written to for this long is forgotten. Default 10 minutes. */
  streamTtlMs?: number;
}

/** Published on a stream's channel when it ends (an event always starts with an id with ':'). */
const END = '!end';

/** KEYS: list, meta, session set. ARGV: event, session id, max events, ttl, channel, stream id. */
const APPEND = new RedisScript(`
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('HSETNX', KEYS[2], 'session', ARGV[2])
redis.call('SADD', KEYS[3], ARGV[6])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[4]) end
redis.call('PUBLISH', ARGV[5], ARGV[1])
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

/** KEYS: list, meta. ARGV: prefix, stream id, end marker. Forgets one stream. */
const DROP_STREAM = new RedisScript(`
local session = redis.call('HGET', KEYS[2], 'session')
if session then redis.call('SREM', ARGV[1] .. 'evs:' .. session, ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', ARGV[1] .. 'evc:' .. ARGV[2], ARGV[3])
return 1
`);

/** KEYS: session set. ARGV: prefix, end marker. Forgets every stream of a session. */
const DROP_SESSION = new RedisScript(`
for _, stream in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', ARGV[1] .. 'ev:' .. stream, ARGV[1] .. 'evm:' .. stream)
  redis.call('PUBLISH', ARGV[1] .. 'evc:' .. stream, ARGV[2])
end
redis.call('DEL', KEYS[1])
return 1
`);

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
  private readonly ttlMs: number;

  constructor(
    private readonly connection: StoreConnection,
    private readonly channels: RedisChannels,
    options: RedisEventStoreOptions = {},
  ) {
    this.maxEvents = Math.max(1, Math.floor(options.maxEventsPerStream ?? 1000));
    this.ttlMs = Math.max(1000, Math.floor(options.streamTtlMs ?? 10 * 60_000));
  }

  private key(kind: 'ev' | 'evm' | 'evs' | 'evc', id: string): string {
    return `${this.connection.prefix}${kind}:${id}`;
  }

  async append(event: {
    streamId: string;
    sessionId: string;
    eventId: string;
    message: JsonRpcMessage;
  }): Promise<void> {
    if (parseEventId(event.eventId) === undefined)
      throw new RangeError(`Malformed event id ${event.eventId}`);
    await APPEND.run(
      this.connection.redis,
      [
        this.key('ev', event.streamId),
        this.key('evm', event.streamId),
        this.key('evs', event.sessionId),
      ],
      [
        `${event.eventId}\n${JSON.stringify(event.message)}`,
        event.sessionId,
        this.maxEvents,
        this.ttlMs,
        this.key('evc', event.streamId),
        event.streamId,
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
      [this.key('ev', streamId), this.key('evm', streamId)],
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

/**
 * @module The sessions of every instance in Redis: one hash per session (`P session:<id>`) with
 * its owner and negotiated state, expiring when the session is idle. Creation and updates are
 * scripts, so a session deleted on one instance is never brought back by another's update.
 */
import type { JsonObject } from '../jsonrpc/types.js';
import type {
  SessionDirectory,
  SessionRecord,
} from '../transports/http/server/sessions/cluster/cluster.js';
import type { StoreConnection } from './redisConnection.js';
import { RedisScript } from './redisScript.js';

/** KEYS: session. ARGV: owner flag ('1' = has one), owner, state JSON, ttl ms. 0 when it exists. */
const CREATE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[1], 'state', ARGV[3], 'owner', ARGV[2])
else
  redis.call('HSET', KEYS[1], 'state', ARGV[3])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`);

/** KEYS: session. ARGV: state JSON. 0 when the session is gone (its expiry is kept). */
const UPDATE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1])
return 1
`);

/** Session ids are ours (hex) or a client's echo of them: anything else is not looked up. */
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

/** The Redis session directory. */
export class RedisSessionDirectory implements SessionDirectory {
  constructor(private readonly connection: StoreConnection) {}

  private key(sessionId: string): string {
    return `${this.connection.prefix}session:${sessionId}`;
  }

  async create(options: {
    sessionId: string;
    record: SessionRecord;
    ttlMs: number;
  }): Promise<void> {
    const owner = options.record.owner;
    const created = await CREATE.run(
      this.connection.redis,
      [this.key(options.sessionId)],
      [
        owner === undefined ? '0' : '1',
        owner ?? '',
        JSON.stringify(options.record.state),
        String(Math.max(1, Math.ceil(options.ttlMs))),
      ],
    );
    if (created !== 1) throw new Error(`Session ${options.sessionId} exists`);
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    if (!SESSION_ID.test(sessionId)) return undefined;
    const hash = await this.connection.redis.hgetall(this.key(sessionId));
    const state = hash['state'];
    if (state === undefined) return undefined;
    return { owner: hash['owner'], state: JSON.parse(state) as JsonObject };
  }

  async update(options: { sessionId: string; state: JsonObject }): Promise<boolean> {
    const updated = await UPDATE.run(
      this.connection.redis,
      [this.key(options.sessionId)],
      [JSON.stringify(options.state)],
    );
    return updated === 1;
  }

  async touch(options: { sessionId: string; ttlMs: number }): Promise<void> {
    await this.connection.redis.pexpire(
      this.key(options.sessionId),
      Math.max(1, Math.ceil(options.ttlMs)),
    );
  }

  async delete(sessionId: string): Promise<boolean> {
    return (await this.connection.redis.del(this.key(sessionId))) === 1;
  }
}

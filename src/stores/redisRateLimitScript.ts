/**
 * @module The one Lua script of the Redis rate limit store: an admission checks every token
 * bucket and the concurrency slot, then takes from all of them or from none, atomically (also
 * between instances). Times come from Redis's clock (`TIME`), so instances with skewed clocks
 * count alike.
 *
 * Keys (P is the store's prefix): `P rate:<key>` hashes `{ t: tokens left, at: ms of the last
 * take }`, expiring when the bucket would be full again (a missing bucket is a full one), and
 * `P rate:running:<subject>` sorted sets of lease ids scored by their expiry (ms), expiring with
 * their last lease. Numbers go through string.format: Lua 5.1 prints numbers with 14 significant
 * digits, too few for a time in ms with its fraction.
 */
import { RedisScript } from './redisScript.js';

/**
 * KEYS: the n buckets, then the slot's set if a slot is asked for. ARGV: n, then `limit`,
 * `windowMs` of each bucket, then the slot's `max`, `leaseMs`, `retryAfterMs`, lease id. Returns
 * `{ 1 }` when admitted, or `{ 0, retryAfterMs, refusedBy }` (0-based; n for the slot) when not,
 * having written nothing.
 */
export const ADMIT: RedisScript = new RedisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local function fmt(n) return string.format('%.0f', n) end
local n = tonumber(ARGV[1])
local wait, refused = 0, -1
local tokens = {}
for i = 1, n do
  local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local burst = math.max(limit, 1)
  local state = redis.call('HMGET', KEYS[i], 't', 'at')
  local left = burst
  if state[1] and state[2] then
    local elapsed = math.max(0, now - tonumber(state[2]))
    left = math.min(burst, tonumber(state[1]) + elapsed * limit / window)
  end
  tokens[i] = left
  if left < 1 then
    local ms = math.ceil((1 - left) * window / limit)
    if ms > wait then wait, refused = ms, i - 1 end
  end
end
local slot = KEYS[n + 1]
local s = 2 * n + 2
if slot then
  redis.call('ZREMRANGEBYSCORE', slot, '-inf', string.format('%.3f', now))
  if redis.call('ZCARD', slot) >= tonumber(ARGV[s]) then
    local ms = tonumber(ARGV[s + 2])
    local first = redis.call('ZRANGE', slot, 0, 0, 'WITHSCORES')
    if first[2] and tonumber(first[2]) - now < ms then ms = tonumber(first[2]) - now end
    ms = math.ceil(ms)
    if refused < 0 or ms > wait then wait, refused = ms, n end
  end
end
if refused >= 0 then return { 0, math.max(1, wait), refused } end
for i = 1, n do
  local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local left = tokens[i] - 1
  redis.call('HSET', KEYS[i], 't', string.format('%.17g', left), 'at', string.format('%.3f', now))
  redis.call('PEXPIRE', KEYS[i], fmt(math.ceil((math.max(limit, 1) - left) * window / limit) + 1))
end
if slot then
  local lease = tonumber(ARGV[s + 1])
  redis.call('ZADD', slot, string.format('%.3f', now + lease), ARGV[s + 3])
  if redis.call('PTTL', slot) < lease then redis.call('PEXPIRE', slot, fmt(math.ceil(lease))) end
end
return { 1 }
`);

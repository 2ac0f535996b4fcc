/**
 * @module The Lua scripts of the Redis task store. Each runs atomically in Redis, so a status
 * change is a compare-and-set also between processes: of a cancel and a completion racing from
 * two instances, exactly one happens. Times come from Redis's own clock (`TIME`), so instances
 * with skewed clocks agree on leases and ordering.
 *
 * Keys (P is the prefix): `P task:<id>` (hash, expires with the task's TTL), `P owner:<owner>`
 * (sorted set of the owner's task ids by creation time), `P active:<owner>` (sorted set of the
 * owner's unfinished task ids by expiry time: what `maxActivePerOwner` counts; a task leaves it
 * when it ends, and an expired one is pruned by its score, so the count never drifts),
 * `P runner:<runner>` (set of the unfinished tasks a process runs), `P runners` (sorted set of
 * runners by lease expiry), `P expired:<owner>` (sorted set of the owner's task ids by the time
 * until which the id is remembered once the task expired: its expiry plus a while; see
 * `TaskStore.expired`), `P cursor-secret` (the key of the `tasks/list` cursors' MACs, shared
 * by every instance; it expires 30 days after the last listing). Every index expires no earlier
 * than the last task it lists, so nothing outlives the tasks (but the remembered ids, by their
 * while). Scripts build the index keys from the prefix: Redis Cluster is not supported (see
 * docs/http.md).
 *
 * Numbers pass through strings: Lua 5.1 prints numbers with 14 significant digits.
 */
import { RedisScript } from './redisScript.js';

/** Shared Lua helpers: Redis time, TTL extension, transition rules. */
const PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000), t
end
local function fmt(n) return string.format('%.0f', n) end
-- Extends a key's expiry to at least ms (ms = -1: never expires).
local function keep(key, ms)
  local current = redis.call('PTTL', key)
  if ms < 0 then
    if current >= 0 then redis.call('PERSIST', key) end
  elseif current >= 0 and current < ms then
    redis.call('PEXPIRE', key, fmt(ms))
  end
end
-- A key created by this script gets its first expiry (keep() leaves keys without one alone).
local function first_expiry(key, ms, existed)
  if not existed and ms >= 0 then redis.call('PEXPIRE', key, fmt(ms)) end
end
local terminal = { completed = true, failed = true, cancelled = true }
local function can_transition(from, to)
  if terminal[from] then return false end
  if from == to then return false end
  return to ~= 'working' or from == 'input_required'
end
-- Whether a hash field holds a request for input (rq:<key>) or a response to one (rs:<key>).
local function is_input(name)
  local head = string.sub(name, 1, 3)
  return head == 'rq:' or head == 'rs:'
end
-- A task that ended no longer counts against its owner's limit of unfinished tasks, and waits
-- on no input.
local function finished(prefix, key, id)
  local owner = redis.call('HGET', key, 'owner')
  if owner then redis.call('ZREM', prefix .. 'active:' .. owner, id) end
  for _, name in ipairs(redis.call('HKEYS', key)) do
    if is_input(name) then redis.call('HDEL', key, name) end
  end
end
`;

/**
 * KEYS: task, owner index, runner set, runners, owner's unfinished tasks, owner's remembered ids.
 * ARGV: id, owner, method, ttl ('' = none), pollInterval (''), runner (''), leaseMs, most
 * unfinished tasks of the owner ('' = no limit), ms an id is remembered after its task expired,
 * most ids remembered per owner, generation ('' = 2025-11-25). Returns the creation time (ms) and the listing score, or
 * { 'limit' } (nothing stored) when the owner is at its limit.
 *
 * All or nothing under Redis's memory limit: Redis refuses a script's writes over `maxmemory`
 * only up to its first write, and only when that write is one it refuses under the limit (HSET,
 * ZADD, SET... not ZREMRANGEBYSCORE, PEXPIRE, DEL); once a script wrote, every later write goes
 * through. So everything before the HSET of the task only reads (the limit counts the live
 * unfinished tasks with ZCOUNT; the expired ones are pruned after), and over the limit the HSET
 * fails with OOM before anything is stored.
 */
export const CREATE: RedisScript = new RedisScript(`${PRELUDE}
local now, t = now_ms()
local ttl = -1
if ARGV[4] ~= '' then ttl = tonumber(ARGV[4]) end
if ARGV[8] ~= '' and redis.call('ZCOUNT', KEYS[5], '(' .. fmt(now), '+inf') >= tonumber(ARGV[8]) then
  return { 'limit' }
end
local score = t[1] .. string.format('%06d', tonumber(t[2]))
local fields = { 'id', ARGV[1], 'owner', ARGV[2], 'method', ARGV[3], 'status', 'working', 'created', fmt(now),
  'updated', fmt(now), 'ttl', ARGV[4], 'score', score }
if ARGV[5] ~= '' then table.insert(fields, 'poll'); table.insert(fields, ARGV[5]) end
if ARGV[6] ~= '' then table.insert(fields, 'runner'); table.insert(fields, ARGV[6]) end
if ARGV[11] ~= '' then table.insert(fields, 'gen'); table.insert(fields, ARGV[11]) end
-- The first write: refused over maxmemory, with nothing written before it (see above).
redis.call('HSET', KEYS[1], unpack(fields))
if ttl >= 0 then redis.call('PEXPIRE', KEYS[1], fmt(ttl)) end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', fmt(now))
local owner_existed = redis.call('EXISTS', KEYS[2]) == 1
redis.call('ZADD', KEYS[2], score, ARGV[1])
first_expiry(KEYS[2], ttl, owner_existed)
keep(KEYS[2], ttl)
local active_existed = redis.call('EXISTS', KEYS[5]) == 1
if ttl >= 0 then
  redis.call('ZADD', KEYS[5], fmt(now + ttl), ARGV[1])
else
  redis.call('ZADD', KEYS[5], '+inf', ARGV[1])
end
first_expiry(KEYS[5], ttl, active_existed)
keep(KEYS[5], ttl)
if ARGV[6] ~= '' then
  local lease = tonumber(ARGV[7])
  local set_existed = redis.call('EXISTS', KEYS[3]) == 1
  redis.call('SADD', KEYS[3], ARGV[1])
  first_expiry(KEYS[3], ttl, set_existed)
  keep(KEYS[3], ttl)
  local runners_existed = redis.call('EXISTS', KEYS[4]) == 1
  redis.call('ZADD', KEYS[4], 'GT', fmt(now + lease), ARGV[6])
  local hold = ttl
  if hold >= 0 then hold = hold + lease end
  first_expiry(KEYS[4], hold, runners_existed)
  keep(KEYS[4], hold)
end
if ttl >= 0 then
  -- Remembered from now on (a live task is told by its hash), until a while after it expires.
  local hold = ttl + tonumber(ARGV[9])
  local ids_existed = redis.call('EXISTS', KEYS[6]) == 1
  redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', fmt(now))
  redis.call('ZADD', KEYS[6], fmt(now + hold), ARGV[1])
  local most = tonumber(ARGV[10])
  if redis.call('ZCARD', KEYS[6]) > most then redis.call('ZREMRANGEBYRANK', KEYS[6], 0, -most - 1) end
  first_expiry(KEYS[6], hold, ids_existed)
  keep(KEYS[6], hold)
end
return { fmt(now), score }
`);

/**
 * KEYS: task, owner's remembered ids. ARGV: id. Returns 1 when the task is gone (expired) and
 * its id is still remembered for the owner, else 0. Reads only.
 */
export const EXPIRED: RedisScript = new RedisScript(`${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local kept = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not kept or tonumber(kept) <= now_ms() then return 0 end
return 1
`);

/**
 * KEYS: task. ARGV: prefix, id, owner ('' = anyone), to, statusMessage, hasMessage ('1'/'0'),
 * outcome JSON (''), channel, origin. Returns { 'ok' | 'not-found' | 'invalid', fields }.
 * Announces `<id> <status> <origin>`: the store that made the change skips its own echo.
 */
export const TRANSITION: RedisScript = new RedisScript(`${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return { 'not-found' } end
if ARGV[3] ~= '' and redis.call('HGET', KEYS[1], 'owner') ~= ARGV[3] then return { 'not-found' } end
local from = redis.call('HGET', KEYS[1], 'status')
local to = ARGV[4]
if not can_transition(from, to) then return { 'invalid', redis.call('HGETALL', KEYS[1]) } end
local now = now_ms()
redis.call('HSET', KEYS[1], 'status', to, 'updated', fmt(now))
if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'msg', ARGV[5]) else redis.call('HDEL', KEYS[1], 'msg') end
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'outcome', ARGV[7]) end
if terminal[to] then
  local runner = redis.call('HGET', KEYS[1], 'runner')
  if runner then redis.call('SREM', ARGV[1] .. 'runner:' .. runner, ARGV[2]) end
  finished(ARGV[1], KEYS[1], ARGV[2])
end
redis.call('PUBLISH', ARGV[8], ARGV[2] .. ' ' .. to .. ' ' .. ARGV[9])
return { 'ok', redis.call('HGETALL', KEYS[1]) }
`);

/**
 * KEYS: task. ARGV: id, channel, origin, then key and request JSON pairs. Adds the requests for
 * input (fields `rq:<key>`) and makes the task input_required, unless it ended. Returns
 * { 'ok' | 'not-found' | 'invalid', fields }.
 */
export const REQUEST_INPUT: RedisScript = new RedisScript(`${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 then return { 'not-found' } end
if terminal[redis.call('HGET', KEYS[1], 'status')] then
  return { 'invalid', redis.call('HGETALL', KEYS[1]) }
end
local fields = { 'status', 'input_required', 'updated', fmt(now_ms()) }
for i = 4, #ARGV, 2 do
  table.insert(fields, 'rq:' .. ARGV[i])
  table.insert(fields, ARGV[i + 1])
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('PUBLISH', ARGV[2], ARGV[1] .. ' input_required ' .. ARGV[3])
return { 'ok', redis.call('HGETALL', KEYS[1]) }
`);

/**
 * KEYS: task. ARGV: id, owner, channel, origin, then key and response JSON pairs. Each response
 * whose request is outstanding is kept (`rs:<key>`, written before its `rq:<key>` goes, so over
 * maxmemory nothing changes) and the request is no longer outstanding; others are ignored. With
 * none outstanding an input_required task is working again. Returns { 'not-found' } or
 * { 'ok', accepted keys, fields }.
 */
export const PROVIDE_INPUT: RedisScript = new RedisScript(`${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] then
  return { 'not-found' }
end
local status = redis.call('HGET', KEYS[1], 'status')
local accepted = {}
if not terminal[status] then
  for i = 5, #ARGV, 2 do
    if redis.call('HEXISTS', KEYS[1], 'rq:' .. ARGV[i]) == 1 then
      redis.call('HSET', KEYS[1], 'rs:' .. ARGV[i], ARGV[i + 1])
      redis.call('HDEL', KEYS[1], 'rq:' .. ARGV[i])
      table.insert(accepted, ARGV[i])
    end
  end
end
if #accepted > 0 then
  local left = false
  for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(name, 1, 3) == 'rq:' then left = true; break end
  end
  if not left and status == 'input_required' then status = 'working' end
  redis.call('HSET', KEYS[1], 'status', status, 'updated', fmt(now_ms()))
  redis.call('PUBLISH', ARGV[3], ARGV[1] .. ' ' .. status .. ' ' .. ARGV[4])
end
return { 'ok', accepted, redis.call('HGETALL', KEYS[1]) }
`);

/** KEYS: task. ARGV: keys. Takes the responses kept for them: { key, response JSON, ... }. */
export const TAKE_INPUT: RedisScript = new RedisScript(`
local out = {}
for i = 1, #ARGV do
  local value = redis.call('HGET', KEYS[1], 'rs:' .. ARGV[i])
  if value then
    redis.call('HDEL', KEYS[1], 'rs:' .. ARGV[i])
    table.insert(out, ARGV[i])
    table.insert(out, value)
  end
end
return out
`);

/** KEYS: runners. ARGV: runner, leaseMs. Extends the runner's lease. */
export const HEARTBEAT: RedisScript = new RedisScript(`${PRELUDE}
local now = now_ms()
local lease = tonumber(ARGV[2])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], fmt(now + lease), ARGV[1])
  keep(KEYS[1], lease)
end
return 1
`);

/**
 * KEYS: runners. ARGV: prefix, statusMessage, outcome JSON, channel, max runners per call,
 * origin.
 * Fails the unfinished tasks of every runner whose lease expired; returns their fields.
 */
export const FAIL_EXPIRED: RedisScript = new RedisScript(`${PRELUDE}
local now = now_ms()
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', fmt(now), 'LIMIT', 0, tonumber(ARGV[5]))
local failed = {}
for _, runner in ipairs(dead) do
  local set = ARGV[1] .. 'runner:' .. runner
  for _, id in ipairs(redis.call('SMEMBERS', set)) do
    local key = ARGV[1] .. 'task:' .. id
    local status = redis.call('HGET', key, 'status')
    if status and not terminal[status] then
      redis.call('HSET', key, 'status', 'failed', 'updated', fmt(now), 'msg', ARGV[2], 'outcome', ARGV[3])
      finished(ARGV[1], key, id)
      redis.call('PUBLISH', ARGV[4], id .. ' failed ' .. ARGV[6])
      table.insert(failed, redis.call('HGETALL', key))
    end
  end
  redis.call('DEL', set)
  redis.call('ZREM', KEYS[1], runner)
end
return failed
`);

/**
 * KEYS: owner index, cursor secret. ARGV: prefix, owner, max score ('+inf' or a score), member
 * to start below ('' = none), limit, a new random secret (stored if there is none yet). Returns
 * { secret, fields of up to limit+1 live tasks... }, newest first; forgets index entries whose
 * task expired. The caller checks the cursor's MAC with the secret returned: reading a page at a
 * position that turns out to be forged costs nothing but the read.
 */
export const LIST: RedisScript = new RedisScript(`${PRELUDE}
local secret = redis.call('GET', KEYS[2])
if not secret then
  secret = ARGV[6]
  redis.call('SET', KEYS[2], secret)
end
redis.call('PEXPIRE', KEYS[2], 2592000000)
local limit = tonumber(ARGV[5])
local out = { secret }
local max = ARGV[3]
local after = ARGV[4]
local offset = 0
while #out <= limit + 1 do
  local chunk = redis.call('ZREVRANGEBYSCORE', KEYS[1], max, '-inf', 'WITHSCORES', 'LIMIT', offset, 64)
  if #chunk == 0 then break end
  for i = 1, #chunk, 2 do
    local id, score = chunk[i], chunk[i + 1]
    local skip = after ~= '' and tonumber(score) == tonumber(max) and id >= after
    if not skip and #out <= limit + 1 then
      local key = ARGV[1] .. 'task:' .. id
      local fields = redis.call('HGETALL', key)
      if #fields == 0 then
        redis.call('ZREM', KEYS[1], id)
        offset = offset - 1
      elseif redis.call('HGET', key, 'owner') == ARGV[2] then
        table.insert(out, fields)
      end
    end
  end
  offset = offset + #chunk / 2
end
return out
`);

import { describe, expect, it } from 'vitest';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { MemoryRateLimitStore } from './memoryRateLimitStore.js';
import {
  RateLimitPolicy,
  rateLimitedError,
  rateLimitSubject,
  type RateLimitCall,
  type RateLimitVerdict,
} from './rateLimitPolicy.js';
import type { RateLimitStore } from './rateLimitStore.js';

const HOUR = 3_600_000;

/** A policy over a memory store on a clock the test moves. */
function clocked(option: ConstructorParameters<typeof RateLimitPolicy>[0] & object) {
  const clock = { now: 0 };
  const store = new MemoryRateLimitStore({ now: () => clock.now });
  return { policy: new RateLimitPolicy({ ...option, store }), clock, store };
}

const call = (over: Partial<RateLimitCall> = {}): RateLimitCall => ({
  identity: { id: 'alice' },
  clientAddress: undefined,
  toolName: 'search',
  toolRule: undefined,
  ...over,
});

/** The verdict of a policy over the memory store: always synchronous. */
function check(policy: RateLimitPolicy, c: RateLimitCall): RateLimitVerdict {
  const verdict = policy.check(c);
  if (verdict instanceof Promise) throw new Error('expected a synchronous verdict');
  return verdict;
}

const allowedRuns = (policy: RateLimitPolicy, c: RateLimitCall, times: number) =>
  Array.from({ length: times }, () => check(policy, c).allowed);

describe('RateLimitPolicy', () => {
  it('with no rule, admits without touching the store', () => {
    const store = new MemoryRateLimitStore();
    const policy = new RateLimitPolicy({ store });
    expect(check(policy, call())).toEqual({ allowed: true });
    expect(check(new RateLimitPolicy(), call())).toEqual({ allowed: true });
    expect(store.size).toEqual({ buckets: 0, slots: 0 });
  });

  it('a single rule (the option of earlier releases) is the per-tool rule', () => {
    const policy = new RateLimitPolicy({ limit: 2, windowMs: HOUR });
    expect(allowedRuns(policy, call(), 3)).toEqual([true, true, false]);
    expect(check(policy, call())).toMatchObject({ allowed: false, limit: 'tool' });
    expect(check(policy, call({ toolName: 'other' })).allowed).toBe(true);
    expect(check(policy, call({ identity: { id: 'bob' } })).allowed).toBe(true);
  });

  it("a tool's own rule replaces perTool; `false` exempts it from perTool only", () => {
    const { policy } = clocked({
      perTool: { limit: 1, windowMs: HOUR },
      global: { limit: 6, windowMs: HOUR },
    });
    expect(allowedRuns(policy, call({ toolRule: { limit: 3, windowMs: HOUR } }), 4)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    // Exempt from perTool, still counted by the global rule (3 of 6 used above).
    expect(allowedRuns(policy, call({ toolName: 'free', toolRule: false }), 4)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(check(policy, call({ toolName: 'free', toolRule: false }))).toMatchObject({
      allowed: false,
      limit: 'global',
    });
  });

  it('counts per principal across tools, and everyone together globally', () => {
    const { policy } = clocked({
      perPrincipal: { limit: 2, windowMs: HOUR },
      global: { limit: 3, windowMs: HOUR },
    });
    expect(check(policy, call({ toolName: 'a' })).allowed).toBe(true);
    expect(check(policy, call({ toolName: 'b' })).allowed).toBe(true);
    expect(check(policy, call({ toolName: 'c' }))).toMatchObject({
      allowed: false,
      limit: 'principal',
    });
    expect(check(policy, call({ identity: { id: 'bob' } })).allowed).toBe(true);
    expect(check(policy, call({ identity: { id: 'carol' } }))).toMatchObject({
      allowed: false,
      limit: 'global',
    });
  });

  it('counts an anonymous caller by address, else as the process; an identity by its id', () => {
    expect(rateLimitSubject({ id: 'alice' }, '192.0.2.1')).toBe('principal:alice');
    expect(rateLimitSubject(undefined, '192.0.2.1')).toBe('address:192.0.2.1');
    expect(rateLimitSubject(undefined, undefined)).toBe('local');
    const { policy } = clocked({ perPrincipal: { limit: 1, windowMs: HOUR } });
    const anonymous = (clientAddress: string | undefined) =>
      check(policy, call({ identity: undefined, clientAddress })).allowed;
    expect([anonymous('192.0.2.1'), anonymous('192.0.2.1'), anonymous('192.0.2.2')]).toEqual([
      true,
      false,
      true,
    ]);
    expect([anonymous(undefined), anonymous(undefined)]).toEqual([true, false]);
    // An identity whose id looks like an address is still a principal of its own.
    expect(check(policy, call({ identity: { id: '192.0.2.1' } })).allowed).toBe(true);
  });

  it('answers the longest wait among the refusing limits, and a refusal costs no limit anything', () => {
    const { policy, clock } = clocked({
      global: { limit: 10, windowMs: HOUR },
      perPrincipal: { limit: 1, windowMs: 1_000 },
      perTool: { limit: 1, windowMs: 60_000 },
    });
    expect(check(policy, call()).allowed).toBe(true);
    expect(check(policy, call())).toEqual({ allowed: false, retryAfterMs: 60_000, limit: 'tool' });
    clock.now = 1_000; // the principal's bucket is full again; the tool's is not
    expect(check(policy, call())).toEqual({ allowed: false, retryAfterMs: 59_000, limit: 'tool' });
    // Neither refusal took from the global bucket or the principal's: another tool still runs
    // (the principal's token is back), and the global bucket lost only the two admitted calls.
    expect(check(policy, call({ toolName: 'other' })).allowed).toBe(true);
    const bob = allowedRuns(policy, call({ identity: { id: 'bob' }, toolRule: false }), 1);
    const others = ['c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map(
      (id) => check(policy, call({ identity: { id }, toolRule: false })).allowed,
    );
    expect([...bob, ...others]).toEqual([true, true, true, true, true, true, true, true, false]);
  });

  it('caps the calls a principal runs at once; the slot lasts as the call says', () => {
    const { policy, clock } = clocked({ concurrentPerPrincipal: { max: 2, retryAfterMs: 250 } });
    const held = [check(policy, call({ leaseMs: 5_000 })), check(policy, call())];
    expect(held.map((v) => v.allowed)).toEqual([true, true]);
    expect(check(policy, call())).toEqual({
      allowed: false,
      retryAfterMs: 250,
      limit: 'concurrency',
    });
    clock.now = 5_000; // the first call's lease (5 s) ended; the second's (default 10 min) holds
    expect(check(policy, call()).allowed).toBe(true);
    expect(check(policy, call()).allowed).toBe(false);
    const second = held[1]!;
    if (second.allowed) second.release!();
    expect(check(policy, call()).allowed).toBe(true);
  });

  it('turns a failing store into -32603 (the call must not run unchecked), sync or async', async () => {
    const cause = new Error('connection refused');
    const throwing: RateLimitStore = {
      admit: () => {
        throw cause;
      },
    };
    const rejecting: RateLimitStore = { admit: () => Promise.reject(cause) };
    for (const store of [throwing, rejecting]) {
      const policy = new RateLimitPolicy({ perTool: { limit: 1, windowMs: 1 }, store });
      const error = await Promise.resolve()
        .then(() => policy.check(call()))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RpcError);
      expect(error).toMatchObject({
        code: ErrorCode.InternalError,
        message:
          'Rate limits could not be checked (the rate limit store failed); the call was not run',
      });
      expect((error as RpcError).cause).toBe(cause);
      expect(JSON.stringify((error as RpcError).toJSON())).not.toContain('connection refused');
    }
  });

  it('maps an asynchronous refusal to its limit', async () => {
    const store: RateLimitStore = {
      admit: (request) =>
        Promise.resolve({ allowed: false, retryAfterMs: 7, refusedBy: request.buckets.length }),
    };
    const policy = new RateLimitPolicy({
      perPrincipal: { limit: 1, windowMs: 1 },
      store,
      concurrentPerPrincipal: 1,
    });
    expect(await policy.check(call())).toEqual({
      allowed: false,
      retryAfterMs: 7,
      limit: 'concurrency',
    });
  });
});

describe('rateLimitedError', () => {
  it.each([
    ['global', /^Rate limit exceeded: the server takes no more calls for now; retry in 2 s$/],
    ['principal', /^Rate limit exceeded: too many calls from this caller; retry in 2 s$/],
    ['tool', /^Rate limit exceeded for tool "search"; retry in 2 s$/],
    ['concurrency', /^Too many calls from this caller are running at once; retry in 2 s$/],
  ] as const)('%s: code %d with retryAfterMs and the limit in data', (limit, message) => {
    const error = rateLimitedError({ allowed: false, retryAfterMs: 1_001, limit }, 'search');
    expect(error.toJSON()).toEqual({
      code: -31429,
      message: expect.stringMatching(message),
      data: { retryAfterMs: 1_001, limit },
    });
  });

  it('says at least 1 s for a wait under a second', () => {
    const error = rateLimitedError({ allowed: false, retryAfterMs: 3, limit: 'tool' }, 't');
    expect(error.message).toMatch(/retry in 1 s$/);
  });
});

describe('the rateLimit option is checked when the server is configured', () => {
  const bad: Array<[unknown, RegExp]> = [
    [
      { limit: 0, windowMs: 1000 },
      /^Server option rateLimit: rate limit "limit" must be a positive finite number \(got 0\)$/,
    ],
    [
      { limit: 1, windowMs: 1000, perPrincipal: { limit: 1, windowMs: 1 } },
      /^Server option rateLimit: a rule \{ limit, windowMs \} cannot also have "perPrincipal"/,
    ],
    ['10/s', /^Server option rateLimit: must be \{ limit, windowMs \} or \{ global, perPrincipal/],
    [
      { perprincipal: { limit: 1, windowMs: 1 } },
      /^Server option rateLimit: unknown key "perprincipal"/,
    ],
    [
      { global: { limit: 1 } },
      /^Server option rateLimit\.global: rate limit "windowMs" must be a positive finite number \(got undefined\)$/,
    ],
    [
      { perPrincipal: { limit: Number.NaN, windowMs: 1 } },
      /^Server option rateLimit\.perPrincipal: rate limit "limit"/,
    ],
    [
      { perTool: 5 },
      /^Server option rateLimit\.perTool: a rate limit must be \{ limit, windowMs \}$/,
    ],
    [
      { concurrentPerPrincipal: 0 },
      /^Server option rateLimit\.concurrentPerPrincipal: max must be a positive whole number \(got 0\)$/,
    ],
    [{ concurrentPerPrincipal: 1.5 }, /max must be a positive whole number \(got 1\.5\)/],
    [
      { concurrentPerPrincipal: { max: 2, retryAfterMs: 0 } },
      /retryAfterMs must be a finite number of milliseconds, at least 1 \(got 0\)/,
    ],
    [
      { concurrentPerPrincipal: 'many' },
      /concurrentPerPrincipal: must be a number or \{ max, retryAfterMs\? \}/,
    ],
    [
      { store: {} },
      /^Server option rateLimit\.store: must be a RateLimitStore \(an object with an admit\(\) method\)$/,
    ],
  ];
  it.each(bad)('refuses %j', (option, message) => {
    expect(() => new RateLimitPolicy(option as never)).toThrow(RangeError);
    expect(() => new RateLimitPolicy(option as never)).toThrow(message);
  });

  it('accepts every rule at once, and copies rules so later changes to the object do nothing', () => {
    const perTool = { limit: 1, windowMs: HOUR };
    const policy = new RateLimitPolicy({
      global: { limit: 100, windowMs: 1000 },
      perPrincipal: { limit: 10, windowMs: 1000 },
      perTool,
      concurrentPerPrincipal: 4,
    });
    perTool.limit = 1000;
    expect(allowedRuns(policy, call(), 2)).toEqual([true, false]);
  });
});

/**
 * @module The server's `rateLimit` option: a single rule (what each principal may call of each
 * tool, as before) or a set of rules (global, per principal, per principal and tool, a
 * concurrency cap per principal) and the store that counts them. Checked once, when the server
 * is made, with errors that name the option at fault.
 */
import { rateLimitRuleProblem, type RateLimitRule, type RateLimitStore } from './rateLimitStore.js';

/** The concurrency cap per principal, in its long form. */
export interface ConcurrencyLimit {
  /** Calls of one principal running at once. */
  max: number;
  /**
   * The retry hint of a call refused by the cap, in milliseconds (when no held slot's lease ends
   * sooner). Default 1000.
   */
  retryAfterMs?: number;
}

/** The rate limits of a server (`new McpServer(info, { rateLimit: { ... } })`). */
export interface RateLimitOptions {
  /** Every call of every caller together (protects the server and what is behind it). */
  global?: RateLimitRule;
  /** Each principal's calls, all tools together. */
  perPrincipal?: RateLimitRule;
  /**
   * Each principal's calls of each tool, for tools that set no `rateLimit` of their own (a tool's
   * `rateLimit: false` exempts it from this rule, not from the others).
   */
  perTool?: RateLimitRule;
  /** Calls of one principal running at once (a number is `{ max }`). */
  concurrentPerPrincipal?: number | ConcurrencyLimit;
  /**
   * Where the counts live. Default: in this process (`MemoryRateLimitStore`). With
   * `RedisRateLimitStore` (`toolwire/redis`, also `createRedisScaleOut().rateLimitStore`) every
   * instance sharing the Redis shares the limits.
   */
  store?: RateLimitStore;
}

/**
 * The `rateLimit` server option: a {@link RateLimitRule} (the same as `{ perTool: rule }`) or
 * {@link RateLimitOptions}.
 */
export type ServerRateLimitOption = RateLimitRule | RateLimitOptions;

/** {@link RateLimitOptions} checked, with the concurrency cap in its long form and defaults set. */
export interface CheckedRateLimits {
  readonly global: RateLimitRule | undefined;
  readonly perPrincipal: RateLimitRule | undefined;
  readonly perTool: RateLimitRule | undefined;
  readonly concurrentPerPrincipal: Required<ConcurrencyLimit> | undefined;
  readonly store: RateLimitStore | undefined;
}

const KEYS = new Set(['global', 'perPrincipal', 'perTool', 'concurrentPerPrincipal', 'store']);
const RULES = ['global', 'perPrincipal', 'perTool'] as const;

const isPositiveWhole = (n: unknown): n is number =>
  typeof n === 'number' && Number.isSafeInteger(n) && n > 0;

function checkedConcurrency(
  value: unknown,
  fail: (what: string, problem: string) => never,
): Required<ConcurrencyLimit> | undefined {
  if (value === undefined) return undefined;
  const long = typeof value === 'number' ? { max: value } : value;
  if (typeof long !== 'object' || long === null)
    fail('concurrentPerPrincipal', 'must be a number or { max, retryAfterMs? }');
  const { max, retryAfterMs = 1000 } = long as Partial<ConcurrencyLimit>;
  if (!isPositiveWhole(max))
    fail('concurrentPerPrincipal', `max must be a positive whole number (got ${String(max)})`);
  if (typeof retryAfterMs !== 'number' || !Number.isFinite(retryAfterMs) || retryAfterMs < 1)
    fail(
      'concurrentPerPrincipal',
      `retryAfterMs must be a finite number of milliseconds, at least 1 (got ${String(retryAfterMs)})`,
    );
  return { max, retryAfterMs };
}

/**
 * Checks the `rateLimit` server option; throws a RangeError naming what is wrong (an unusable
 * rule, an unknown key: a mistyped option must not silently leave a server unprotected).
 */
export function checkRateLimitOption(option: unknown): CheckedRateLimits {
  const fail = (what: string, problem: string): never => {
    throw new RangeError(
      `Server option ${what === '' ? 'rateLimit' : `rateLimit.${what}`}: ${problem}`,
    );
  };
  if (option === undefined)
    return {
      global: undefined,
      perPrincipal: undefined,
      perTool: undefined,
      concurrentPerPrincipal: undefined,
      store: undefined,
    };
  if (typeof option !== 'object' || option === null || Array.isArray(option))
    fail(
      '',
      'must be { limit, windowMs } or { global, perPrincipal, perTool, concurrentPerPrincipal, store }',
    );
  const record = option as Record<string, unknown>;
  if ('limit' in record || 'windowMs' in record) {
    // The single rule of earlier releases: what each principal may call of each tool.
    const extra = Object.keys(record).find((key) => key !== 'limit' && key !== 'windowMs');
    if (extra !== undefined)
      fail('', `a rule { limit, windowMs } cannot also have "${extra}" (put the rule in perTool)`);
    const problem = rateLimitRuleProblem(record);
    if (problem) fail('', problem);
    return checkRateLimitOption({ perTool: record });
  }
  for (const key of Object.keys(record))
    if (!KEYS.has(key))
      fail(
        '',
        `unknown key "${key}" (known: ${[...KEYS].join(', ')}; or a rule { limit, windowMs })`,
      );
  for (const name of RULES) {
    if (record[name] === undefined) continue;
    const problem = rateLimitRuleProblem(record[name]);
    if (problem) fail(name, problem);
  }
  const store = record['store'];
  if (
    store !== undefined &&
    (typeof store !== 'object' ||
      store === null ||
      typeof (store as RateLimitStore).admit !== 'function')
  )
    fail('store', 'must be a RateLimitStore (an object with an admit() method)');
  const rule = (name: (typeof RULES)[number]): RateLimitRule | undefined => {
    const value = record[name] as RateLimitRule | undefined;
    return value && { limit: value.limit, windowMs: value.windowMs };
  };
  return {
    global: rule('global'),
    perPrincipal: rule('perPrincipal'),
    perTool: rule('perTool'),
    concurrentPerPrincipal: checkedConcurrency(record['concurrentPerPrincipal'], fail),
    store: store as RateLimitStore | undefined,
  };
}

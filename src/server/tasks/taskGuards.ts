/**
 * @module What keeps a requestor's task lookups in bounds, in this process: polls of one task
 * (`tasks/get`, `tasks/result`) faster than its `pollInterval` are slowed down, and a requestor
 * asking for many task ids that do not exist (or are not its own) is refused for a while and
 * reported once (the spec's "rate limiting on task operations" and "monitor for many failed task
 * lookups"). A refusal is the server's rate-limit error (-31429, `data: { retryAfterMs, limit }`),
 * as for calls. Memory stays bounded: idle entries are dropped, then the oldest.
 */
import type { RpcError } from '../../jsonrpc/errors.js';
import { rateLimitError } from '../policy/rateLimitPolicy.js';

/** How a poll is let through: at once (0), after `waitMs`, or refused. */
export type PollDecision =
  { kind: 'now' } | { kind: 'wait'; waitMs: number } | { kind: 'refuse'; retryAfterMs: number };

const NOW: PollDecision = { kind: 'now' };

/**
 * How early a poll may come and still count as coming on its turn. The poller that was just made
 * to wait sends its next poll the moment it is answered, and the timer that answered it is on
 * libuv's millisecond loop clock while the bucket reads `Date.now()`: the two can disagree by a
 * millisecond or two, which made that next poll look one interval and a hair early, and refused.
 */
const TURN_SLACK_MS = 5;

interface Bucket {
  readonly requestor: string;
  tokens: number;
  at: number;
}

/**
 * A token bucket per (requestor, task): one poll per `intervalMs`, `burst` at once. A poll beyond
 * it waits for its token, as long as that takes at most one interval: a requestor polling in a
 * loop without pause gets one answer per interval, never an error. Only polls sent side by side
 * beyond that are refused. A requestor that waits `pollInterval` between polls of a task (as
 * toolwire's client does) never waits at all.
 */
export class PollGate {
  /**
   * Buckets by task id: a task is polled by its owner, so one lookup finds the bucket. Anyone
   * else naming the same id gets a bucket of its own in `others`, so polling someone's task id
   * never uses up that someone's polls.
   */
  private readonly buckets = new Map<string, Bucket>();
  private readonly others = new Map<string, Bucket>();
  private readonly intervalMs: number;
  private readonly burst: number;
  private readonly now: () => number;
  private readonly maxBuckets: number;

  constructor(options: {
    intervalMs: number;
    burst: number;
    now?: () => number;
    /** Buckets kept at most in each of the two maps (idle ones go first). Default 100 000. */
    maxBuckets?: number;
  }) {
    this.intervalMs = options.intervalMs;
    this.burst = options.burst;
    this.now = options.now ?? Date.now;
    this.maxBuckets = options.maxBuckets ?? 100_000;
  }

  /** Takes the token of one poll of `taskId` by `requestor`. */
  take(requestor: string, taskId: string): PollDecision {
    if (this.intervalMs <= 0) return NOW;
    const now = this.now();
    let bucket = this.buckets.get(taskId);
    if (!bucket) bucket = this.add(this.buckets, { requestor, taskId, now });
    else if (bucket.requestor !== requestor) bucket = this.other(requestor, taskId, now);
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) / this.intervalMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return NOW;
    }
    const waitMs = Math.ceil((1 - bucket.tokens) * this.intervalMs);
    if (waitMs > this.intervalMs + TURN_SLACK_MS) return { kind: 'refuse', retryAfterMs: waitMs };
    bucket.tokens -= 1; // reserved: the poll goes once it is back
    return { kind: 'wait', waitMs };
  }

  /** The bucket of a requestor naming a task id first polled by another requestor. */
  private other(requestor: string, taskId: string, now: number): Bucket {
    // Length-prefixed: no requestor and id can spell another pair's key.
    const key = `${requestor.length}:${requestor}${taskId}`;
    return this.others.get(key) ?? this.add(this.others, { requestor, taskId: key, now });
  }

  private add(
    map: Map<string, Bucket>,
    at: { requestor: string; taskId: string; now: number },
  ): Bucket {
    if (map.size >= this.maxBuckets) this.sweep(map, at.now);
    const bucket: Bucket = { requestor: at.requestor, tokens: this.burst, at: at.now };
    map.set(at.taskId, bucket);
    return bucket;
  }

  /** Drops the buckets that are full again (idle), then the oldest while still too many. */
  private sweep(map: Map<string, Bucket>, now: number): void {
    for (const [key, b] of map)
      if (b.tokens + (now - b.at) / this.intervalMs >= this.burst) map.delete(key);
    for (const key of map.keys()) {
      if (map.size < this.maxBuckets) break;
      map.delete(key);
    }
  }
}

/** The unknown-id limit of a requestor: at most `limit` unknown ids within `windowMs`. */
export interface LookupLimit {
  limit: number;
  windowMs: number;
}

interface LookupWindow {
  start: number;
  count: number;
  blockedUntil: number;
}

/**
 * Counts the lookups of unknown task ids per requestor in a fixed window. Once a requestor
 * reaches the limit, its task requests naming an id are refused (-31429 with `data.limit`
 * `unknownTasks`, the same answer whatever the id, so it tells nothing about which tasks exist)
 * for one window length, and the server's error report hears of it once, with the count. The
 * lookups themselves are answered "unknown task" (-32602) as ever, so a task of someone else
 * still looks exactly like a missing one.
 */
export class LookupGuard {
  private readonly windows = new Map<string, LookupWindow>();

  private readonly now: () => number;
  private readonly maxRequestors: number;

  constructor(
    private readonly rule: LookupLimit,
    private readonly report: (error: unknown, what: string) => void,
    options: { now?: () => number; maxRequestors?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxRequestors = options.maxRequestors ?? 10_000;
  }

  /** Throws the rate-limit error (limit `unknownTasks`) while `requestor` is refused. */
  check(requestor: string): void {
    const window = this.windows.get(requestor);
    if (!window) return;
    const left = window.blockedUntil - this.now();
    if (left <= 0) return;
    throw refusal('Rate limit exceeded: too many requests for unknown tasks', left, 'unknownTasks');
  }

  /** Records one lookup of an id `requestor` has no task by. */
  unknown(requestor: string): void {
    const now = this.now();
    let window = this.windows.get(requestor);
    if (!window || this.over(window, now)) {
      if (window) this.windows.delete(requestor);
      else if (this.windows.size >= this.maxRequestors) this.sweep(now);
      window = { start: now, count: 0, blockedUntil: 0 };
      this.windows.set(requestor, window);
    }
    window.count += 1;
    if (window.count !== this.rule.limit) return;
    window.blockedUntil = now + this.rule.windowMs;
    const seconds = Math.ceil(this.rule.windowMs / 1000);
    const within = Math.max(1, Math.ceil((now - window.start) / 1000));
    this.report(
      new Error(
        `${requestor} asked for ${window.count} unknown task ids within ${within} s; ` +
          `its task requests are refused for ${seconds} s`,
      ),
      'task lookups',
    );
  }

  /** True once a window has run its length and any refusal it started has ended. */
  private over(window: LookupWindow, now: number): boolean {
    return now - window.start >= this.rule.windowMs && now >= window.blockedUntil;
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (this.over(w, now)) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxRequestors) break;
      this.windows.delete(key);
    }
  }
}

/** A task guard's refusal: the server's rate-limit error, asking for a whole millisecond at least. */
export function refusal(
  what: string,
  retryAfterMs: number,
  limit: 'taskPoll' | 'unknownTasks',
): RpcError {
  return rateLimitError(what, { retryAfterMs: Math.max(1, Math.ceil(retryAfterMs)), limit });
}

/**
 * @module How many incoming requests run at once, and what happens to the rest. At most
 * `maxRunning` handlers run; further requests wait in order, up to `maxQueued`. When that many
 * wait, the transport is asked to stop reading (stdio stops reading its input, so a client that
 * pipelines thousands of requests is slowed down, never refused) and asked to read again once
 * half of them have started. A transport that cannot stop reading gets requests beyond the bound
 * refused (-32000), so memory stays bounded whatever the peer sends.
 */
import { Fifo } from './fifo.js';

/** What the scheduler tells the transport. */
export interface FlowControl {
  /** Stop delivering messages (may be absent: such a transport cannot be slowed down). */
  pause?(): void;
  /** Deliver messages again. */
  resume?(): void;
}

/** A request as the scheduler sees it: started now or later, skipped if cancelled meanwhile. */
export interface Schedulable {
  /** True when the request no longer needs to run (cancelled by the peer, connection closed). */
  readonly abandoned: boolean;
}

/** Decides when each incoming request starts. */
export class RequestScheduler<T extends Schedulable> {
  private running = 0;
  private readonly waiting = new Fifo<T>();
  private paused = false;
  private draining = false;

  private readonly run: (job: T) => void;
  private readonly drop: (job: T) => void;

  constructor(
    private readonly limits: { readonly maxRunning: number; readonly maxQueued: number },
    private readonly flow: FlowControl,
    jobs: {
      /** Runs one request; `finished()` must be called once it ends. */
      run: (job: T) => void;
      /** Drops a request that was abandoned while it waited (it gets no response). */
      drop: (job: T) => void;
    },
  ) {
    this.run = jobs.run;
    this.drop = jobs.drop;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** True when the queue is full: a transport that routes per request (HTTP) should refuse more. */
  get saturated(): boolean {
    return this.waiting.length >= this.limits.maxQueued;
  }

  /**
   * Runs `job` now when a slot is free, else queues it. False when it can neither run nor wait
   * (the queue is full and the transport could not be slowed down in time).
   */
  admit(job: T): boolean {
    if (this.running < this.limits.maxRunning && this.waiting.length === 0) {
      this.running++;
      this.run(job);
      return true;
    }
    const canPause = this.flow.pause !== undefined;
    // A transport that stops reading may still deliver what it had already read: let that wait.
    const limit = canPause ? this.limits.maxQueued * 4 : this.limits.maxQueued;
    if (this.waiting.length >= limit) return false;
    this.waiting.push(job);
    if (!this.paused && canPause && this.waiting.length >= this.limits.maxQueued) {
      this.paused = true;
      this.flow.pause?.();
    }
    return true;
  }

  /** A running request ended: start the next ones. */
  finished(): void {
    this.running--;
    this.drain();
  }

  /** Forgets every waiting request (the connection closed). */
  clear(): void {
    this.waiting.clear();
  }

  private drain(): void {
    // A synchronous handler finishes inside run(): loop here instead of recursing through it.
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.running < this.limits.maxRunning) {
        const job = this.waiting.shift();
        if (job === undefined) break;
        if (job.abandoned) {
          this.drop(job);
          continue;
        }
        this.running++;
        this.run(job);
      }
    } finally {
      this.draining = false;
    }
    if (this.paused && this.waiting.length <= this.limits.maxQueued / 2) {
      this.paused = false;
      this.flow.resume?.();
    }
  }
}

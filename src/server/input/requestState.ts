/**
 * @module The `requestState` of a multi-round-trip call (2026-07-28, basic/patterns/mrtr): what a
 * call was answered so far, handed to the client in an `input_required` result and echoed in the
 * retry. The client is not trusted with it: the state is signed (HMAC-SHA256 with the server's
 * secret) and bound to the caller, the tool, a digest of the arguments and an expiry, so a state
 * that was altered, has expired, or was issued for another caller, tool or arguments is refused
 * (-32602). Signed, not encrypted: the client sees the answers it gave itself. Web Crypto, so the
 * server runs wherever it does (Node, Deno, Bun, workers); only retries and `input_required`
 * results pay for it.
 */
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import type { JsonObject } from '../../jsonrpc/types.js';

/** What a state says about its call. */
export interface RoundState {
  /** The tool called. */
  readonly tool: string;
  /** The digest of the call's arguments ({@link argumentsDigest}). */
  readonly args: string;
  /** Who called (an identity's id; empty for an anonymous caller). */
  readonly principal: string;
  /** Rounds answered so far (1 after the first `input_required`). */
  readonly round: number;
  /** Expiry, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** The answers collected in earlier rounds, by input key. */
  readonly answers: Readonly<Record<string, unknown>>;
  /**
   * The keys asked in the last round, with the kind each asks for: only answers to these are
   * taken from the retry, each checked for its kind's shape.
   */
  readonly asked: Readonly<Record<string, 'sampling' | 'elicitation' | 'roots'>>;
  /** A random id of this state: one that carries an approval is spent by its use (spentStates.ts). */
  readonly id?: string;
}

/** The call a state must have been issued for. */
export interface RoundCall {
  readonly tool: string;
  readonly args: string;
  readonly principal: string;
}

/** The largest state accepted, in characters: a state is echoed on every retry. */
const MAX_STATE_CHARS = 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A SHA-256 digest of a call's arguments that does not depend on the order of their keys. */
export async function argumentsDigest(args: JsonObject | undefined): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(canonical(args ?? {})));
  return toBase64url(new Uint8Array(digest));
}

function refused(detail: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid requestState: ${detail}`);
}

/** Signs and checks the states of one server (every instance of it, given the same secret). */
export class RequestStateCodec {
  private readonly secret: Uint8Array<ArrayBuffer>;
  private key: Promise<CryptoKey> | undefined;

  /** `secret`: at least 32 bytes; random (this process only) when absent. */
  constructor(secret?: string | Uint8Array) {
    const bytes =
      secret === undefined
        ? crypto.getRandomValues(new Uint8Array(32))
        : typeof secret === 'string'
          ? encoder.encode(secret)
          : Uint8Array.from(secret);
    if (bytes.length < 32) throw new RangeError('inputRoundTrips.secret must be at least 32 bytes');
    this.secret = bytes;
  }

  private hmacKey(): Promise<CryptoKey> {
    return (this.key ??= crypto.subtle.importKey(
      'raw',
      this.secret,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ));
  }

  /** The state as the opaque string the client echoes. */
  async seal(state: RoundState): Promise<string> {
    const payload = toBase64url(encoder.encode(JSON.stringify(state)));
    const mac = await crypto.subtle.sign('HMAC', await this.hmacKey(), encoder.encode(payload));
    return `${payload}.${toBase64url(new Uint8Array(mac))}`;
  }

  /**
   * The state of a retried call, checked against the call it came back with; rejects with -32602
   * when it was altered, has expired, or belongs to another caller, tool or arguments.
   */
  async open(token: unknown, call: RoundCall, now: number): Promise<RoundState> {
    if (typeof token !== 'string' || token.length > MAX_STATE_CHARS) throw refused('not a state');
    const dot = token.indexOf('.');
    const payload = token.slice(0, Math.max(dot, 0));
    const mac = fromBase64url(token.slice(dot + 1));
    // Web Crypto's verify compares in constant time.
    const genuine =
      dot > 0 &&
      mac !== undefined &&
      (await crypto.subtle.verify('HMAC', await this.hmacKey(), mac, encoder.encode(payload)));
    if (!genuine) throw refused('it was not issued by this server, or was altered');
    const state = JSON.parse(decoder.decode(fromBase64url(payload))) as RoundState;
    if (state.expiresAt <= now) throw refused('it has expired; call the tool again');
    if (state.tool !== call.tool || state.args !== call.args)
      throw refused('it was issued for another tool or other arguments');
    if (state.principal !== call.principal) throw refused('it was issued to another caller');
    return state;
  }
}

/**
 * @module The 2026 input channel (basic/patterns/mrtr): a call cannot wait for the client, so a
 * request for input that the call's retry has not answered yet is recorded and the call ends
 * with an `input_required` result (see inputRound.ts); the client answers and retries, and the
 * handler runs again from the start, its earlier requests now answered at once. A request is
 * known across rounds by its key: its position among the call's requests, its kind and a digest
 * of what it asks, so an answer is only ever given to the very question it answers.
 */
import { LocalError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import { missingCapability } from '../../protocol/eras/rev2026/errors.js';
import { CreateMessage, Elicit, ListRoots } from '../../protocol/methods.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import type { InputAnswer, InputCall, InputChannel, InputRequest } from './inputChannel.js';
import { pushRefusal } from './pushRefusal.js';
import { ToolError } from '../results.js';

/** Why a call ended early: it asked for input its request did not carry. Never reaches the client. */
export class InputPending extends Error {
  override readonly name = 'InputPending';
  constructor() {
    super('The call needs input from the client: it is answered input_required');
  }
}

/** An input request as the client receives it inside `inputRequests`. */
export interface WireInputRequest {
  readonly method: string;
  readonly params: JsonObject;
}

/** What kind of input each pending key asks for (its answer is checked for that kind's shape). */
export type AskedKinds = Record<string, InputRequest['kind']>;

const KIND_LETTER = { sampling: 's', elicitation: 'e', roots: 'r' } as const;

export function wireOf(request: InputRequest): WireInputRequest {
  switch (request.kind) {
    case 'sampling':
      return { method: CreateMessage.method, params: request.params as unknown as JsonObject };
    case 'roots':
      return { method: ListRoots.method, params: {} };
    case 'elicitation': {
      // A URL elicitation of this era has no elicitationId (its completion notification is gone).
      const { elicitationId: _gone, ...params } = request.params as unknown as JsonObject;
      return { method: Elicit.method, params };
    }
  }
}

/** The capability a refused request needs, as the -32021 answer names it. */
function requiredFor(request: InputRequest): ClientCapabilities {
  switch (request.kind) {
    case 'sampling': {
      const tools = request.params.tools !== undefined || request.params.toolChoice !== undefined;
      return { sampling: tools ? { tools: {} } : {} };
    }
    case 'roots':
      return { roots: {} };
    case 'elicitation':
      return { elicitation: request.params.mode === 'url' ? { url: {} } : { form: {} } };
  }
}

/**
 * A 64-bit hash of `text` (two 32-bit multiplicative hashes), in base 36: it tells questions
 * apart and is no security measure (the answers are the client's own; the state that carries
 * them is signed).
 */
function hash64(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0).toString(36) + (h2 >>> 0).toString(36);
}

/** The key of the `index`-th request of a call (see the module comment). */
export function roundTripKeyOf(
  index: number,
  request: InputRequest,
  wire: WireInputRequest,
): string {
  return `${KIND_LETTER[request.kind]}${index}-${hash64(JSON.stringify(wire))}`;
}

/** The input channel of one 2026 call. */
export class RoundTripInputChannel implements InputChannel {
  private asked = 0;
  /** The requests the call made that its request did not answer, by key. */
  readonly pending: Map<string, WireInputRequest> = new Map();
  /** The kind of each pending request, by key. */
  readonly kinds: AskedKinds = {};
  /** The keys asked in this run (a key names one request of a call). */
  private readonly used = new Set<string>();
  /** A key the handler misused: the call ends with this error, not with `input_required`. */
  fault: LocalError | undefined;

  constructor(
    private readonly capabilities: ClientCapabilities,
    private readonly profile: RevisionProfile,
    /**
     * What the call's request carries: its answers (earlier rounds' and this retry's), by key,
     * and a way to spend its state (false when it was spent before).
     */
    private readonly carried: {
      readonly answers: ReadonlyMap<string, unknown>;
      readonly spend: () => Promise<boolean>;
    },
  ) {}

  refusal(request: InputRequest): ReturnType<InputChannel['refusal']> {
    return pushRefusal(request, this.capabilities, this.profile);
  }

  /** What the call's request carried (earlier rounds' answers and this retry's), by key. */
  get carriedAnswers(): ReadonlyMap<string, unknown> {
    return this.carried.answers;
  }

  ask<R extends InputRequest>(request: R, call: InputCall): Promise<InputAnswer<R>> {
    const refused = this.refusal(request);
    // The request did not declare what the call needs: a protocol error (-32021), not a result.
    if (refused) return Promise.reject(missingCapability(requiredFor(request), refused.message));
    const wire = wireOf(request);
    const key = call.key ?? roundTripKeyOf(this.asked, request, wire);
    this.asked++;
    if (typeof key !== 'string' || key.length === 0 || key.length > 200 || this.used.has(key)) {
      this.fault ??= new LocalError(
        'invalid-tool',
        `The input key ${JSON.stringify(key).slice(0, 80)} is empty, too long or used twice in one call`,
      );
      return Promise.reject(this.fault);
    }
    this.used.add(key);
    if (this.carried.answers.has(key)) {
      const answer = this.carried.answers.get(key) as InputAnswer<R>;
      if (call.approval !== true) return Promise.resolve(answer);
      // An approval lets the work through once: the state that carries it is spent now.
      return this.carried.spend().then((fresh) => {
        if (fresh) return answer;
        throw new ToolError(
          'This approval was already used (the same request was sent again): call the tool again to be asked again',
        );
      });
    }
    this.pending.set(key, wire);
    this.kinds[key] = request.kind;
    return Promise.reject(new InputPending());
  }
}

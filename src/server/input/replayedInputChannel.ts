/**
 * @module The input channel of a task that a call became at `ctx.detach()` (the tasks extension,
 * a tool registered with `inputBeforeTask`): the handler runs again from the start inside the
 * task, and each question it asked before detaching is known by the same key as in the call's
 * round trips (its position, kind and a digest of what it asks, or the key the handler named), so
 * it is answered at once with what the request carried, each once. An approval among them was
 * spent by the inline run that reached `detach()`: it is not spent again. Any other question goes
 * to the task's own channel (`input_required` on the task, answered by `tasks/update`).
 */
import type { InputAnswer, InputCall, InputChannel, InputRequest } from './inputChannel.js';
import { roundTripKeyOf, wireOf } from './roundTripInputChannel.js';

/** Answers from the carried ones first, then through `then`. */
export class ReplayedInputChannel implements InputChannel {
  private asked = 0;
  private readonly replayed = new Set<string>();

  constructor(
    private readonly carried: ReadonlyMap<string, unknown>,
    private readonly then: InputChannel,
  ) {}

  refusal(request: InputRequest): ReturnType<InputChannel['refusal']> {
    return this.then.refusal(request);
  }

  ask<R extends InputRequest>(request: R, call: InputCall): Promise<InputAnswer<R>> {
    const key = call.key ?? roundTripKeyOf(this.asked, request, wireOf(request));
    this.asked++;
    if (typeof key === 'string' && this.carried.has(key) && !this.replayed.has(key)) {
      this.replayed.add(key);
      return Promise.resolve(this.carried.get(key) as InputAnswer<R>);
    }
    return this.then.ask(request, call);
  }
}

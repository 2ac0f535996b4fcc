/**
 * @module `ctx.detach()` (the tasks extension of 2026-07-28): a tool registered with
 * `inputBeforeTask` gathers its input by round trip while the call is answered inline, and when
 * its handler calls `detach()` the call becomes a task. The inline run ends there with
 * {@link DetachRequested}, which never reaches the client: the call pipeline creates the task and
 * runs the handler again from the start inside it, each question it asked before answered at once
 * with what the request carried, and `detach()` resolves in that run.
 */

/** Why an inline run ended: its handler asked to continue as a task. Never reaches the client. */
export class DetachRequested extends Error {
  override readonly name = 'DetachRequested';
  constructor() {
    super('The call continues as a task (ctx.detach())');
  }
}

// The tool context asks only its input channel: the one given to the call, else the session's.
import { describe, expect, it } from 'vitest';
import type { Cancellation } from '../../jsonrpc/cancellation.js';
import { CallContext, type SessionPort } from '../toolContext.js';
import type { InputCall, InputChannel, InputRequest, TaskBinding } from './inputChannel.js';

/** A channel that answers `{ asked: kind }` and records what it was asked. */
function recordingChannel() {
  const asked: Array<{ request: InputRequest; call: InputCall }> = [];
  const channel: InputChannel = {
    refusal: () => undefined,
    ask: (request, call) => {
      asked.push({ request, call });
      return Promise.resolve({ asked: request.kind } as never);
    },
  };
  return { channel, asked };
}

function contextOf(options: {
  input?: InputChannel;
  sessionInput?: InputChannel;
  task?: TaskBinding;
}) {
  const controller = new AbortController();
  const cancellation = { signal: controller.signal } as Cancellation;
  const session = {
    info: { id: 's', clientCapabilities: {} },
    input: options.sessionInput,
  } as unknown as SessionPort;
  const context = new CallContext({
    session,
    requestId: 42,
    toolName: 't',
    meta: undefined,
    incoming: { cancellation },
    identity: undefined,
    input: options.input,
    task: options.task,
  });
  return { context, controller };
}

describe('CallContext input', () => {
  it("asks the session's channel, destructured, for the call's request with its signal", async () => {
    const { channel, asked } = recordingChannel();
    const { context } = contextOf({ sessionInput: channel });
    const { sample, elicit, listRoots } = context;
    const params = { messages: [], maxTokens: 5 };
    await expect(sample(params)).resolves.toEqual({ asked: 'sampling' });
    const form = { message: 'm', requestedSchema: { type: 'object' as const, properties: {} } };
    await elicit(form, { timeoutMs: 9 });
    await listRoots();
    expect(asked.map((a) => a.request)).toEqual([
      { kind: 'sampling', params },
      { kind: 'elicitation', params: form },
      { kind: 'roots' },
    ]);
    expect(asked[0]?.call).toEqual({
      requestId: 42,
      signal: context.signal,
      timeoutMs: undefined,
      task: undefined,
    });
    expect(asked[1]?.call.timeoutMs).toBe(9);
  });

  it('prefers the channel given to the call, and passes its task binding', async () => {
    const session = recordingChannel();
    const own = recordingChannel();
    const task: TaskBinding = { taskId: 'T', route: () => undefined, inputRequired: () => {} };
    const { context } = contextOf({ input: own.channel, sessionInput: session.channel, task });
    await context.listRoots();
    expect(session.asked).toEqual([]);
    expect(own.asked[0]?.call.task).toBe(task);
  });

  it("joins the handler's signal to the call's: either one ends the wait", async () => {
    const { channel, asked } = recordingChannel();
    const { context, controller } = contextOf({ sessionInput: channel });
    const mine = new AbortController();
    await context.listRoots({ signal: mine.signal });
    const joined = asked[0]?.call.signal;
    expect(joined).not.toBe(context.signal);
    expect(joined?.aborted).toBe(false);
    controller.abort();
    expect(joined?.aborted).toBe(true);
  });
});

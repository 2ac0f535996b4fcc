import { describe, expect, it } from 'vitest';
import type { RequestOptions } from '../../jsonrpc/connection.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { JsonObject, RequestId } from '../../jsonrpc/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import { era2025 } from '../../protocol/eras/rev2025/era.js';
import type { ClientCapabilities, ElicitParams } from '../../protocol/types.js';
import type { InputCall, InputRequest, TaskBinding } from './inputChannel.js';
import { PushInputChannel } from './pushInputChannel.js';

interface Sent {
  method: string;
  params: JsonObject;
  options: RequestOptions;
}

function profileOf(revision: string): RevisionProfile {
  const profile = era2025.profile(revision);
  if (!profile) throw new Error(`no profile for ${revision}`);
  return profile;
}

/** A push channel whose client answers every request with `answer`, recording what it got. */
function channel(
  capabilities: ClientCapabilities,
  revision = '2025-11-25',
  answer: JsonObject = { ok: true },
) {
  const sent: Sent[] = [];
  const push = new PushInputChannel({
    requester: {
      requestClient: (method, params, options) => {
        sent.push({ method, params, options });
        return Promise.resolve(answer);
      },
    },
    capabilities,
    profile: profileOf(revision),
  });
  return { push, sent };
}

const call: InputCall = { requestId: 7, signal: new AbortController().signal };
const form: ElicitParams = {
  mode: 'form',
  message: 'Name?',
  requestedSchema: { type: 'object', properties: {} },
};
const url: ElicitParams = {
  mode: 'url',
  message: 'Sign in',
  url: 'https://example.com/login',
  elicitationId: 'e1',
};

async function refusedWith(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LocalError);
  expect((error as LocalError).code).toBe('capability-missing');
  return (error as LocalError).message;
}

describe('PushInputChannel', () => {
  it('pushes each kind as its request, related to the call, with its timeout and signal', async () => {
    const { push, sent } = channel({ sampling: {}, elicitation: {}, roots: {} });
    const controller = new AbortController();
    const mine: InputCall = { requestId: 'r1', signal: controller.signal, timeoutMs: 250 };
    const params = { messages: [], maxTokens: 10 };
    await expect(push.ask({ kind: 'sampling', params }, mine)).resolves.toEqual({ ok: true });
    await push.ask({ kind: 'elicitation', params: form }, mine);
    await push.ask({ kind: 'roots' }, mine);
    expect(sent.map((s) => [s.method, s.params])).toEqual([
      ['sampling/createMessage', params],
      ['elicitation/create', form],
      ['roots/list', {}],
    ]);
    for (const s of sent)
      expect(s.options).toEqual({
        signal: controller.signal,
        timeoutMs: 250,
        relatedRequestId: 'r1',
      });
  });

  it('refuses what the client did not declare, with the messages ctx has always thrown', async () => {
    const { push, sent } = channel({});
    const sampling: InputRequest = { kind: 'sampling', params: { messages: [], maxTokens: 1 } };
    expect(push.refusal(sampling)?.message).toBe('The client does not support sampling');
    expect(await refusedWith(push.ask(sampling, call))).toBe(
      'The client does not support sampling',
    );
    expect(await refusedWith(push.ask({ kind: 'elicitation', params: form }, call))).toBe(
      'The client does not support elicitation',
    );
    expect(await refusedWith(push.ask({ kind: 'roots' }, call))).toBe(
      'The client does not support roots',
    );
    expect(sent).toEqual([]);
  });

  it('cuts the capabilities to the revision: no sampling tools or URL mode before 2025-11-25', () => {
    const capabilities = { sampling: { tools: {} }, elicitation: { form: {}, url: {} } };
    const tools: InputRequest = {
      kind: 'sampling',
      params: { messages: [], maxTokens: 1, toolChoice: { mode: 'auto' } },
    };
    const urlMode: InputRequest = { kind: 'elicitation', params: url };
    const latest = channel(capabilities).push;
    expect(latest.refusal(tools)).toBeUndefined();
    expect(latest.refusal(urlMode)).toBeUndefined();
    const older = channel(capabilities, '2025-06-18').push;
    expect(older.refusal(tools)?.message).toBe('The client does not support tool use in sampling');
    expect(older.refusal(urlMode)?.message).toBe(
      'The client does not support URL-mode elicitation',
    );
    const noTools = channel({ sampling: {} }).push;
    expect(noTools.refusal(tools)?.message).toBe(
      'The client does not support tool use in sampling',
    );
  });

  it('reads elicitation modes as 2025-11-25 does: empty means form, url alone refuses form', () => {
    const empty = channel({ elicitation: {} }).push;
    expect(empty.refusal({ kind: 'elicitation', params: form })).toBeUndefined();
    expect(empty.refusal({ kind: 'elicitation', params: url })?.message).toBe(
      'The client does not support URL-mode elicitation',
    );
    const urlOnly = channel({ elicitation: { url: {} } }).push;
    expect(urlOnly.refusal({ kind: 'elicitation', params: form })?.message).toBe(
      'The client does not support form-mode elicitation',
    );
    expect(urlOnly.refusal({ kind: 'elicitation', params: url })).toBeUndefined();
  });

  it('drops `mode` from a form elicitation before 2025-11-25, where it does not exist', async () => {
    const { push, sent } = channel({ elicitation: {} }, '2025-06-18');
    await push.ask({ kind: 'elicitation', params: form }, call);
    expect(sent[0]?.params).not.toHaveProperty('mode');
    expect(sent[0]?.params).toMatchObject({ message: 'Name?' });
  });

  it("routes a task's request on the task's stream, tagged with the task, input_required meanwhile", async () => {
    const waiting: boolean[] = [];
    let route: RequestId | undefined = 'tasks-result-3';
    const task: TaskBinding = {
      taskId: 'T1',
      route: () => route,
      inputRequired: (w) => waiting.push(w),
    };
    const { push, sent } = channel({ roots: {} });
    await push.ask({ kind: 'roots' }, { ...call, task });
    expect(sent[0]?.params).toEqual({
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'T1' } },
    });
    expect(sent[0]?.options.relatedRequestId).toBe('tasks-result-3');
    expect(waiting).toEqual([true, false]);
    route = undefined;
    await push.ask({ kind: 'roots' }, { ...call, task });
    expect(sent[1]?.options).not.toHaveProperty('relatedRequestId');
  });

  it('ends input_required even when the client fails, and passes the failure on', async () => {
    const waiting: boolean[] = [];
    const task: TaskBinding = {
      taskId: 'T2',
      route: () => undefined,
      inputRequired: (w) => waiting.push(w),
    };
    const push = new PushInputChannel({
      requester: { requestClient: () => Promise.reject(new Error('gone')) },
      capabilities: { roots: {} },
      profile: profileOf('2025-11-25'),
    });
    await expect(push.ask({ kind: 'roots' }, { ...call, task })).rejects.toThrow('gone');
    expect(waiting).toEqual([true, false]);
  });
});

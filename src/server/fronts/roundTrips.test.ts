import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedTransport } from '../../../test/support/scriptedTransport.js';
import { validateDefinition } from '../../../test/support/specSchemas.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { McpServer, type ServerOptions } from '../mcpServer.js';

const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  [CAPS]: { elicitation: {}, sampling: {} },
};
const SECRET = 'a test secret that is long enough, 32+';

function server(options: ServerOptions = {}): McpServer {
  const s = new McpServer(
    { name: 'mrtr', version: '1' },
    { inputRoundTrips: { secret: SECRET }, ...options },
  );
  s.registerTool(
    'transfer',
    { inputSchema: z.object({ amount: z.number() }) },
    async ({ amount }, { elicit, sample }) => {
      const who = await elicit({
        message: 'Account?',
        requestedSchema: { type: 'object', properties: { account: { type: 'string' } } },
      });
      if (who.action !== 'accept') return 'cancelled';
      const note = await sample({
        messages: [{ role: 'user', content: { type: 'text', text: `Note for ${amount}` } }],
        maxTokens: 10,
      });
      const content = Array.isArray(note.content) ? note.content[0] : note.content;
      const text = content?.type === 'text' ? content.text : '?';
      return `sent ${amount} to ${String(who.content?.['account'])}: ${String(text)}`;
    },
  );
  return s;
}

async function open(s: McpServer, identity?: { id: string }) {
  const transport = new ScriptedTransport();
  await s.connect(transport, identity ? { identity } : {});
  let id = 0;
  const call = async (params: JsonObject, meta: JsonObject = META): Promise<JsonObject> => {
    id += 1;
    transport.inject({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { ...params, _meta: meta },
    });
    const message = (await transport.next()) as unknown as JsonObject;
    expect(message['id']).toBe(id);
    return message;
  };
  return { transport, call };
}

function inputRequired(message: JsonObject) {
  const result = message['result'] as JsonObject;
  expect(validateDefinition('2026-07-28', 'InputRequiredResult', result)).toEqual([]);
  expect(result['resultType']).toBe('input_required');
  const requests = result['inputRequests'] as Record<string, { method: string }>;
  return { requests, keys: Object.keys(requests), state: result['requestState'] as string };
}

function errorOf(message: JsonObject): { code: number; message: string; data?: unknown } {
  return message['error'] as { code: number; message: string; data?: unknown };
}

const ACCEPT = { action: 'accept', content: { account: 'ACME-1' } };
const NOTE = { role: 'assistant', content: { type: 'text', text: 'thanks' }, model: 'm' };

describe('input by round trip (2026-07-28)', () => {
  it('asks once per round, carries earlier answers in the signed state, then completes', async () => {
    const { call } = await open(server());
    const args = { name: 'transfer', arguments: { amount: 5 } };
    const first = inputRequired(await call(args));
    expect(first.keys).toHaveLength(1);
    expect(first.requests[first.keys[0] as string]?.method).toBe('elicitation/create');
    const second = inputRequired(
      await call({
        ...args,
        requestState: first.state,
        inputResponses: { [first.keys[0] as string]: ACCEPT },
      }),
    );
    expect(second.requests[second.keys[0] as string]?.method).toBe('sampling/createMessage');
    const done = await call({
      ...args,
      requestState: second.state,
      inputResponses: { [second.keys[0] as string]: NOTE },
    });
    expect(validateDefinition('2026-07-28', 'CallToolResultResponse', done)).toEqual([]);
    expect(done['result']).toMatchObject({
      content: [{ type: 'text', text: 'sent 5 to ACME-1: thanks' }],
      resultType: 'complete',
    });
  });

  it('ignores answers sent without the state that asked for them', async () => {
    const { call } = await open(server());
    const args = { name: 'transfer', arguments: { amount: 5 } };
    const first = inputRequired(await call(args));
    // A first request claiming the answer up front is asked again: it cannot pre-claim it.
    const forged = inputRequired(
      await call({ ...args, inputResponses: { [first.keys[0] as string]: ACCEPT } }),
    );
    expect(forged.keys).toEqual(first.keys);
  });

  it('refuses a state that was altered, expired, or issued for other arguments or another caller', async () => {
    const s = server({ inputRoundTrips: { secret: SECRET, ttlMs: 200 } });
    const alice = await open(s, { id: 'alice' });
    const bob = await open(s, { id: 'bob' });
    const args = { name: 'transfer', arguments: { amount: 5 } };
    const { state, keys } = inputRequired(await alice.call(args));
    const answer = { [keys[0] as string]: ACCEPT };
    const last = state.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${state.slice(0, -2)}${last}${state.slice(-1)}`;
    const cases: Array<[string, () => Promise<JsonObject>]> = [
      ['altered', () => alice.call({ ...args, requestState: tampered, inputResponses: answer })],
      ['not a state', () => alice.call({ ...args, requestState: 'junk', inputResponses: answer })],
      [
        'other arguments',
        () =>
          alice.call({
            name: 'transfer',
            arguments: { amount: 500 },
            requestState: state,
            inputResponses: answer,
          }),
      ],
      ['another caller', () => bob.call({ ...args, requestState: state, inputResponses: answer })],
    ];
    // One at a time: each reply is read as the next message of its connection.
    for (const [what, reply] of cases) expect(errorOf(await reply()).code, what).toBe(-32602);
    await new Promise((r) => setTimeout(r, 250));
    const expired = errorOf(
      await alice.call({ ...args, requestState: state, inputResponses: answer }),
    );
    expect(expired).toMatchObject({ code: -32602, message: expect.stringMatching(/expired/) });
  });

  it('refuses a state another server (another secret) issued', async () => {
    const a = await open(server());
    const b = await open(
      server({ inputRoundTrips: { secret: 'another secret, also long enough!!' } }),
    );
    const args = { name: 'transfer', arguments: { amount: 5 } };
    const { state, keys } = inputRequired(await a.call(args));
    const reply = await b.call({
      ...args,
      requestState: state,
      inputResponses: { [keys[0] as string]: ACCEPT },
    });
    expect(errorOf(reply).code).toBe(-32602);
  });

  it('answers -32021 naming the capability when the request did not declare it', async () => {
    const { call } = await open(server());
    const reply = await call(
      { name: 'transfer', arguments: { amount: 5 } },
      { ...META, [CAPS]: { sampling: {} } },
    );
    expect(validateDefinition('2026-07-28', 'MissingRequiredClientCapabilityError', reply)).toEqual(
      [],
    );
    expect(errorOf(reply)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  it('stops a call that asks for more rounds than allowed', async () => {
    const { call } = await open(server({ inputRoundTrips: { secret: SECRET, maxRounds: 1 } }));
    const args = { name: 'transfer', arguments: { amount: 5 } };
    const first = inputRequired(await call(args));
    const second = await call({
      ...args,
      requestState: first.state,
      inputResponses: { [first.keys[0] as string]: ACCEPT },
    });
    expect(second['result']).toMatchObject({ isError: true, resultType: 'complete' });
  });

  it('refuses an answer of the wrong shape', async () => {
    const { call } = await open(server());
    const args = { name: 'transfer', arguments: { amount: 5 } };
    const first = inputRequired(await call(args));
    const reply = await call({
      ...args,
      requestState: first.state,
      inputResponses: { [first.keys[0] as string]: { action: 'maybe' } },
    });
    expect(errorOf(reply).code).toBe(-32602);
  });

  it('names a request by the key the handler gives, and refuses a key used twice', async () => {
    const s = server();
    s.registerTool('named', {}, async (_args, { elicit }) => {
      const who = await elicit(
        { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
        { inputKey: 'user_name' },
      );
      return who.action;
    });
    s.registerTool('twice', {}, async (_args, { elicit }) => {
      const params = {
        message: 'Again?',
        requestedSchema: { type: 'object' as const, properties: {} },
      };
      await Promise.all([elicit(params, { inputKey: 'k' }), elicit(params, { inputKey: 'k' })]);
      return 'never';
    });
    const { call } = await open(s);
    const first = inputRequired(await call({ name: 'named' }));
    expect(first.keys).toEqual(['user_name']);
    const done = await call({
      name: 'named',
      requestState: first.state,
      inputResponses: { user_name: { action: 'decline' } },
    });
    expect(done['result']).toMatchObject({ content: [{ text: 'decline' }] });
    const twice = await call({ name: 'twice' });
    expect(twice['result']).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/used twice/) }],
    });
  });

  it('checks its options', () => {
    expect(() => server({ inputRoundTrips: { secret: 'short' } })).toThrow(/32 bytes/);
    expect(() => server({ inputRoundTrips: { maxRounds: 0 } })).toThrow(/maxRounds/);
    expect(() => server({ inputRoundTrips: { ttlMs: -1 } })).toThrow(/ttlMs/);
  });
});

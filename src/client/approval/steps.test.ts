// The approval's steps as the client's instrumentation hears them (ClientInstrumentation.toolCall):
// only for calls a policy decides about; what was asked (never the arguments) and what decided,
// with what changed in a definition; the scope rides on the call's first tools/call request only
// and is ended once, after it, or without one when the call never went out.
import { describe, expect, it } from 'vitest';
import { connect } from '../../../test/support/harness.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { McpServer } from '../../server.js';
import type { ClientInstrumentation, ToolCallScope, ToolCallView } from '../instrumentation.js';
import { definitionChanges, fingerprintTool } from './fingerprint.js';
import type { ApprovalDecision, ApprovalPolicy } from './policy.js';
import type { ApprovalStep } from './steps.js';

interface Observed {
  view: ToolCallView;
  steps: ApprovalStep[];
  ended: Array<{ error: unknown }>;
  /** The methods of the requests that carried this scope. */
  carriedBy: string[];
}

/** An instrumentation recording each observed call. */
function observing(calls: Observed[], options: { throwing?: boolean } = {}) {
  const scopes = new Map<ToolCallScope, Observed>();
  const instrument: ClientInstrumentation = Object.assign(
    (
      request: Parameters<ClientInstrumentation>[0],
      send: (p: JsonObject | undefined) => Promise<JsonObject>,
    ) => {
      if (request.call) scopes.get(request.call)?.carriedBy.push(request.method);
      return send(request.params);
    },
    {
      toolCall: (view: ToolCallView) => {
        const observed: Observed = { view, steps: [], ended: [], carriedBy: [] };
        calls.push(observed);
        const scope: ToolCallScope = {
          approval: (step) => {
            observed.steps.push(step);
            if (options.throwing) throw new Error('instrumentation broke');
          },
          end: (error) => observed.ended.push({ error }),
        };
        scopes.set(scope, observed);
        return scope;
      },
    },
  );
  return instrument;
}

function server() {
  const s = new McpServer({ name: 'steps', version: '1' });
  const write = s.registerTool('write', { description: 'Writes a note.' }, () => 'written');
  s.registerTool('report', { execution: { taskSupport: 'required' } }, () => 'reported');
  return { s, write };
}

async function client(answers: ApprovalDecision[], policy: Partial<ApprovalPolicy> = {}) {
  const calls: Observed[] = [];
  const { s, write } = server();
  const approval: ApprovalPolicy = { confirm: () => answers.shift() ?? 'deny', ...policy };
  const connected = await connect(s, { client: { instrument: observing(calls), approval } });
  return { calls, write, client: connected.client };
}

describe('ClientInstrumentation.toolCall', () => {
  it('hears a question and the person’s answer, and the call’s first request carries it', async () => {
    const { calls, client: c } = await client(['allow-once']);
    await c.callTool('write', { text: 'private' });
    const [call] = calls;
    expect(call?.view).toMatchObject({ name: 'write', arguments: { text: 'private' } });
    const tool = (await c.listTools())[0]!;
    expect(call?.steps).toEqual([
      { step: 'asked', reason: 'first-use', tool, fingerprint: await fingerprintTool(tool) },
      { step: 'decided', decision: 'allow-once', source: 'person', reason: 'first-use' },
    ]);
    expect(JSON.stringify(call?.steps)).not.toContain('private');
    expect(call?.carriedBy).toEqual(['tools/call']);
    expect(call?.ended).toEqual([{ error: undefined }]);
  });

  it('rides on the task-augmented tools/call of a call run as a task, not on its polls', async () => {
    const { calls, client: c } = await client(['allow-once']);
    expect(await c.callTool('report')).toMatchObject({ content: [{ text: 'reported' }] });
    expect(calls[0]?.carriedBy).toEqual(['tools/call']);
    expect(calls[0]?.ended).toEqual([{ error: undefined }]);
  });

  it('ends a denied call once, with the refusal, no request carrying it', async () => {
    const { calls, client: c } = await client(['deny']);
    await expect(c.callTool('write')).rejects.toMatchObject({ code: 'denied' });
    expect(calls[0]?.carriedBy).toEqual([]);
    expect(calls[0]?.ended).toMatchObject([{ error: { code: 'denied' } }]);
    expect(calls[0]?.steps.at(-1)).toMatchObject({ decision: 'deny', source: 'person' });
  });

  it('tells a trusted server’s new claim to need fewer confirmations, with what changed', async () => {
    const {
      calls,
      write,
      client: c,
    } = await client(['allow-once', 'allow-once'], {
      trustAnnotations: true,
    });
    await c.callTool('write');
    write.update({ annotations: { readOnlyHint: true } });
    await c.listTools();
    await c.callTool('write');
    expect(calls[1]?.steps[0]).toMatchObject({
      step: 'asked',
      reason: 'fewer-confirmations',
      fewerConfirmations: true,
      previous: { name: 'write' },
      changes: [{ field: 'annotations', before: undefined, after: { readOnlyHint: true } }],
    });
  });

  it('says the policy decided when it needs no confirmation', async () => {
    const { calls, client: c } = await client([], { needsConfirmation: () => false });
    await c.callTool('write');
    expect(calls[0]?.steps).toEqual([
      { step: 'decided', decision: 'not-required', source: 'policy' },
    ]);
  });

  it('is not asked about calls no policy decides, and an observer that throws breaks nothing', async () => {
    const plain: Observed[] = [];
    const { s } = server();
    const { client: c } = await connect(s, { client: { instrument: observing(plain) } });
    await c.callTool('write');
    expect(plain).toEqual([]);

    const throwing: Observed[] = [];
    const other = server();
    const { client: t } = await connect(other.s, {
      client: {
        instrument: observing(throwing, { throwing: true }),
        approval: { confirm: () => 'allow-once' },
      },
    });
    expect(await t.callTool('write')).toMatchObject({ content: [{ text: 'written' }] });
    expect(throwing[0]?.steps).toHaveLength(2);
  });
});

describe('definitionChanges', () => {
  it('lists the judged fields that differ, in their order, icons and _meta left out', () => {
    const before = { name: 'a', description: 'x', inputSchema: { type: 'object' as const } };
    expect(
      definitionChanges(before, {
        ...before,
        description: 'y',
        title: 'A',
        icons: [{ src: 'https://example.com/i.png' }],
        _meta: { k: 1 },
      }),
    ).toEqual([
      { field: 'title', before: undefined, after: 'A' },
      { field: 'description', before: 'x', after: 'y' },
    ]);
    expect(definitionChanges(before, { ...before })).toEqual([]);
  });
});

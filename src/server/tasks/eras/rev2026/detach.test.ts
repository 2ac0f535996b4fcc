/**
 * `inputBeforeTask` and `ctx.detach()`: a tool gathers its input by round trip while the call is
 * answered inline, and becomes a task of the tasks extension when its handler detaches (the
 * extension's SHOULD: MRTR exchanges before task creation are resolved synchronously). Through
 * the test harness, every message checked against its schema.
 */
import { describe, expect, it } from 'vitest';
import { connect } from '../../../../../test/support/harness.js';
import type { JsonRpcMessage } from '../../../../jsonrpc/types.js';
import { McpServer } from '../../../mcpServer.js';
import type { Middleware } from '../../../middleware/middleware.js';

const NAME_SCHEMA = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
};

function server() {
  const runs: string[] = [];
  const s = new McpServer({ name: 'detach', version: '1' }, { tasks: { pollIntervalMs: 10 } });
  s.registerTool(
    'onboard',
    { execution: { taskSupport: 'optional' }, inputBeforeTask: true },
    async (_args, { elicit, confirm, detach, signal }) => {
      runs.push('start');
      const who = await elicit({ message: 'Name?', requestedSchema: NAME_SCHEMA });
      const go = await confirm('Create the account?');
      if (!go) return 'nothing done';
      await detach();
      runs.push('detached');
      // Asked inside the task: input_required on the task, answered by tasks/update.
      const team = await elicit(
        { message: 'Team?', requestedSchema: NAME_SCHEMA },
        { inputKey: 'team' },
      );
      signal.throwIfAborted();
      return `${String(who.content?.['name'])} joins ${String(team.content?.['name'])}`;
    },
  );
  return { s, runs };
}

const answers = (replies: Record<string, string>) => ({
  handlers: {
    elicitation: ({ message }: { message: string }) => {
      const content: Record<string, string> =
        message === 'Create the account?' ? {} : { name: replies[message] ?? '?' };
      return { action: 'accept' as const, content };
    },
  },
});

function methods(sent: unknown[]): string[] {
  return (sent as JsonRpcMessage[]).flatMap((m) => ('method' in m ? [m.method] : []));
}

describe('input before the task (inputBeforeTask, ctx.detach())', () => {
  it('asks by round trip inline, becomes a task at detach, and runs on inside it', async () => {
    const { s, runs } = server();
    const { client, clientSent, serverSent } = await connect(s, {
      era: '2026',
      client: answers({ 'Name?': 'Ada', 'Team?': 'Compilers' }),
    });
    const statuses: string[] = [];
    const result = await client.callTool(
      'onboard',
      {},
      { task: true, ontaskstatus: (t) => statuses.push(t.status) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Ada joins Compilers' }]);
    // Two inline runs (the name, then the approval), then the task's run from the start.
    expect(runs).toEqual(['start', 'start', 'start', 'start', 'detached']);
    const calls = methods(clientSent).filter((m) => m === 'tools/call');
    expect(calls).toHaveLength(3);
    const callIds = new Set(
      (clientSent as JsonRpcMessage[]).flatMap((m) =>
        'method' in m && 'id' in m && m.method === 'tools/call' ? [m.id] : [],
      ),
    );
    const answered = (serverSent as JsonRpcMessage[]).flatMap((m) =>
      'result' in m && callIds.has(m.id) ? [(m.result as { resultType?: string }).resultType] : [],
    );
    expect(answered).toEqual(['input_required', 'input_required', 'task']);
    expect(methods(clientSent)).toContain('tasks/update');
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    await client.close();
  });

  it('a request without the extension, and a 2025 session: detach() does nothing', async () => {
    const plain = server();
    const modern = await connect(plain.s, {
      era: '2026',
      client: { ...answers({ 'Name?': 'Ada', 'Team?': 'Ops' }), tasksExtension: false },
    });
    expect((await modern.client.callTool('onboard')).content).toEqual([
      { type: 'text', text: 'Ada joins Ops' },
    ]);
    expect(methods(modern.clientSent)).not.toContain('tasks/get');
    await modern.client.close();

    const legacy = server();
    const session = await connect(legacy.s, {
      client: answers({ 'Name?': 'Bo', 'Team?': 'QA' }),
    });
    expect((await session.client.callTool('onboard', {}, { task: true })).content).toEqual([
      { type: 'text', text: 'Bo joins QA' },
    ]);
    // One run, as a 2025 task from the start: its questions pushed through tasks/result.
    expect(legacy.runs).toEqual(['start', 'detached']);
    await session.client.close();
  });

  it('a call that ends before detaching is answered inline, no task', async () => {
    const s = new McpServer({ name: 'detach', version: '1' });
    s.registerTool(
      'maybe',
      { execution: { taskSupport: 'optional' }, inputBeforeTask: true },
      async (_a, { confirm, detach }) => {
        if (!(await confirm('Go on?'))) return 'stopped before the task';
        await detach();
        return 'ran as a task';
      },
    );
    const { client, clientSent } = await connect(s, {
      era: '2026',
      client: { handlers: { elicitation: () => ({ action: 'decline' as const }) } },
    });
    const result = await client.callTool('maybe', {}, { task: true });
    expect(result.content).toEqual([{ type: 'text', text: 'stopped before the task' }]);
    expect(methods(clientSent)).not.toContain('tasks/get');
    await client.close();
  });

  it('is refused at registration without task support', () => {
    const s = new McpServer({ name: 'detach', version: '1' });
    expect(() => s.registerTool('bad', { inputBeforeTask: true }, () => 'x')).toThrow(
      /inputBeforeTask needs execution.taskSupport/,
    );
  });
});

describe('a tool with middleware of its own, as an extension task (found in review)', () => {
  it('passes the CreateTaskResult through the middleware, detached or not', async () => {
    const s = new McpServer({ name: 'mw', version: '1' }, { tasks: { pollIntervalMs: 10 } });
    const seen: string[] = [];
    const middleware: Middleware[] = [
      async (request, next) => {
        seen.push(request.method);
        return next();
      },
    ];
    s.registerTool(
      'plain_task',
      { execution: { taskSupport: 'required' }, middleware },
      () => 'ok',
    );
    s.registerTool(
      'detached',
      { execution: { taskSupport: 'required' }, inputBeforeTask: true, middleware },
      async (_a, { detach }) => {
        await detach();
        return 'detached ok';
      },
    );
    const { client } = await connect(s, { era: '2026' });
    expect((await client.callTool('plain_task')).content).toEqual([{ type: 'text', text: 'ok' }]);
    expect((await client.callTool('detached')).content).toEqual([
      { type: 'text', text: 'detached ok' },
    ]);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    await client.close();
  });
});

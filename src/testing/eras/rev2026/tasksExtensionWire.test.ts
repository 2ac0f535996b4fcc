/**
 * `connectInMemory(server, { revision: '2026-07-28', validateWire: true })` and the tasks
 * extension: a task run end to end (created by tools/call, polled by tasks/get, given input by
 * tasks/update, cancelled by tasks/cancel) passes the shipped check, each extension message
 * checked against the extension's schema; and a malformed one fails it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryTaskStore, McpServer, type TaskRecord } from '../../../server.js';
import { connectInMemory, WireViolation } from '../../../testing.js';
import { WireSchema } from '../../wireSchema.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server whose tools run only as tasks: one asks for input, one runs until cancelled. */
function taskServer(store?: MemoryTaskStore) {
  const server = new McpServer(
    { name: 'tasks', version: '1' },
    { tasks: { pollIntervalMs: 5, ...(store ? { store } : {}) } },
  );
  let cancelled = 0;
  server.registerTool('quick', { execution: { taskSupport: 'required' } }, () => 'done');
  server.registerTool('ask', { execution: { taskSupport: 'required' } }, async (_a, { elicit }) => {
    const answer = await elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return `Hello, ${String(answer.content?.['name'])}!`;
  });
  server.registerTool('forever', { execution: { taskSupport: 'required' } }, (_a, { signal }) => {
    return new Promise<string>((_resolve, reject) =>
      signal.addEventListener('abort', () => {
        cancelled++;
        reject(signal.reason as Error);
      }),
    );
  });
  return { server, cancelled: () => cancelled };
}

const elicitation = {
  handlers: { elicitation: () => ({ action: 'accept' as const, content: { name: 'Ada' } }) },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('validateWire at 2026-07-28 checks the tasks extension against its own schema', () => {
  it('a task created, polled, given input and cancelled: no violation', async () => {
    const checked = vi.spyOn(WireSchema.prototype, 'check');
    const { server, cancelled } = taskServer();
    const c = await connectInMemory(server, {
      revision: '2026-07-28',
      validateWire: true,
      client: elicitation,
    });
    // tools/call answered with a task, tasks/get until input_required, tasks/update, completed.
    expect((await c.client.callTool('ask')).content).toEqual([
      { type: 'text', text: 'Hello, Ada!' },
    ]);
    // tasks/cancel when the call is aborted.
    const controller = new AbortController();
    const call = c.client.callTool('forever', {}, { signal: controller.signal });
    await sleep(50);
    controller.abort(new Error('not needed any more'));
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 100 && cancelled() === 0; i++) await sleep(10);
    expect(cancelled()).toBe(1);
    await sleep(20); // the cancel's answer and the last polls
    expect(c.violations).toEqual([]);
    await c.close();
    // Each extension result was checked, against the extension's definitions.
    const definitions = new Set(checked.mock.calls.map(([definition]) => definition));
    for (const definition of [
      'CreateTaskResult',
      'GetTaskResult',
      'UpdateTaskResult',
      'CancelTaskResult',
    ])
      expect(definitions, definition).toContain(definition);
    expect(definitions).not.toContain('CallToolResult');
  });

  it('a tasks/get result whose ttlMs is a string is a violation', async () => {
    /** A store that hands the task back with its TTL as text. */
    class TextTtlStore extends MemoryTaskStore {
      override async get(options: { taskId: string; owner: string }) {
        const record = await super.get(options);
        return record && ({ ...record, ttl: String(record.ttl) } as unknown as TaskRecord);
      }
    }
    const { server } = taskServer(new TextTtlStore());
    const c = await connectInMemory(server, { revision: '2026-07-28', validateWire: true });
    const error = await c.client.callTool('quick').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WireViolation);
    const violation = error as WireViolation;
    expect(violation.revision).toBe('2026-07-28');
    expect(violation.sent).toMatchObject({ result: { resultType: 'complete', ttlMs: '600000' } });
    expect(violation.problems).toContainEqual(
      expect.objectContaining({ definition: 'GetTaskResult', pointer: '/result/ttlMs' }),
    );
    expect(c.violations).toContain(violation);
    await c.close(); // reported by the call: close() does not throw it again
  });
});

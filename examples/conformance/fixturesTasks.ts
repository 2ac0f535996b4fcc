/**
 * The fixture tools of the conformance suite 0.2.0-alpha.12's `tasks-*` scenarios (the tasks
 * extension of 2026-07-28), learned from its scenario sources: a plain tool (`greet`), a tool that
 * may run as a task (`slow_compute`) and tools that run only as tasks (a tool error, a protocol
 * error, one request for input, two at once). On 2025 sessions the same tools are 2025-11-25 tasks.
 */
import { ErrorCode, RpcError, type McpServer } from 'toolwire';
import * as z from 'zod';

/** Waits `ms`, or rejects when `signal` aborts (a cancelled task stops at once). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};

/** Registers the tasks fixtures on `server`. */
export function registerTasksFixtures(server: McpServer): void {
  server.registerTool(
    'greet',
    { description: 'Greets by name, at once', inputSchema: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );
  server.registerTool(
    'slow_compute',
    {
      description: 'Sleeps for some seconds, as a task when the client takes tasks',
      inputSchema: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
      execution: { taskSupport: 'optional' },
    },
    async ({ seconds, label }, { signal }) => {
      await sleep(seconds * 1000, signal);
      return `${label ?? 'computed'}: slept ${seconds} s`;
    },
  );
  server.registerTool(
    'failing_job',
    {
      description: 'Runs only as a task, and ends in a tool error (isError) after a second',
      execution: { taskSupport: 'required' },
    },
    async (_args, { signal }) => {
      await sleep(1000, signal);
      return { content: [{ type: 'text' as const, text: 'The job failed' }], isError: true };
    },
  );
  server.registerTool(
    'protocol_error_job',
    {
      description: 'Runs only as a task, and ends in a JSON-RPC error',
      execution: { taskSupport: 'required' },
    },
    async (_args, { signal }) => {
      await sleep(200, signal);
      throw new RpcError(ErrorCode.InternalError, 'The job hit a protocol error');
    },
  );
  server.registerTool(
    'confirm_delete',
    {
      description: 'Asks to confirm the deletion of a file, then deletes it (pretends to)',
      inputSchema: z.object({ filename: z.string() }),
      execution: { taskSupport: 'required' },
    },
    async ({ filename }, { elicit }) => {
      const answer = await elicit({
        message: `Delete ${filename}?`,
        requestedSchema: CONFIRM_SCHEMA,
      });
      const confirmed = answer.action === 'accept' && answer.content?.['confirm'] === true;
      return confirmed ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  );
  server.registerTool(
    'multi_input',
    {
      description: 'Asks two questions at once',
      execution: { taskSupport: 'required' },
    },
    async (_args, { elicit }) => {
      const ask = (inputKey: string, message: string) =>
        elicit(
          {
            message,
            requestedSchema: {
              type: 'object',
              properties: { name: { type: 'string' }, confirm: { type: 'boolean' } },
            },
          },
          { inputKey },
        );
      const [first, second] = await Promise.all([
        ask('first', 'The first name?'),
        ask('second', 'The second name?'),
      ]);
      return `${String(first.content?.['name'])} and ${String(second.content?.['name'])}`;
    },
  );
  // The extension's SHOULD: input gathered by round trip resolves before the task is created.
  server.registerTool(
    'test_tool_with_task',
    {
      description: 'Asks for a name by round trip, then continues as a task',
      execution: { taskSupport: 'required' },
      inputBeforeTask: true,
    },
    async (_args, { elicit, detach }) => {
      const answer = await elicit(
        {
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
        { inputKey: 'user_name' },
      );
      await detach();
      const name = answer.action === 'accept' ? String(answer.content?.['name']) : 'stranger';
      return `Hello, ${name}! (from the task)`;
    },
  );
}

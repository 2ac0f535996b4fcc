/**
 * Issue 11, output sanitising: "error messages without stack traces or internal paths (as
 * today)". What a handler's failure sends the client, with `exposeErrorMessages` off (the
 * default) and on, for every way a handler can fail; the whole wire is searched for stack frames
 * and for the paths of this process.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorCode, RpcError } from '../../src/jsonrpc/errors.js';
import { McpServer, ToolError } from '../../src/server.js';
import { connect } from '../support/harness.js';

const HERE = fileURLToPath(import.meta.url);
const SECRET_PATH = '/srv/app/config/secrets.json';
/** A V8 stack frame: `at fn (file:line:col)` or `at file:line:col`. */
const STACK_FRAME = /\bat (?:.+ \()?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+/;

function failing(): Error {
  const error = new Error(`ENOENT: no such file or directory, open '${SECRET_PATH}'`);
  expect(error.stack).toMatch(STACK_FRAME); // the error really carries a stack to leak
  return error;
}

async function serve(exposeErrorMessages: boolean) {
  const reported: Array<{ error: unknown; what: string }> = [];
  const server = new McpServer(
    { name: 'leaky', version: '1' },
    { exposeErrorMessages, onerror: (error, what) => reported.push({ error, what }) },
  );
  server.registerTool('sync', {}, () => {
    throw failing();
  });
  server.registerTool('async', {}, async () => {
    await Promise.resolve();
    throw failing();
  });
  server.registerTool('string', {}, () => {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- what careless code does
    throw `cannot read ${SECRET_PATH}`;
  });
  server.registerTool('tool-error', {}, () => {
    throw new ToolError('The city is unknown');
  });
  server.registerTool('rpc-error', {}, () => {
    throw new RpcError(ErrorCode.InvalidParams, 'Bad cursor');
  });
  const connected = await connect(server);
  return { ...connected, reported };
}

/** Everything the server sent, as the client received it. */
function wire(serverSent: unknown[]): string {
  return JSON.stringify(serverSent);
}

describe('handler failures with exposeErrorMessages off (the default)', () => {
  it.each(['sync', 'async', 'string'])(
    'a %s failure sends a generic message: no path, no stack, no error text',
    async (tool) => {
      const { client, serverSent, reported } = await serve(false);
      const result = await client.callTool(tool);
      expect(result).toEqual({
        content: [{ type: 'text', text: `Tool "${tool}" failed with an internal error` }],
        isError: true,
      });
      const sent = wire(serverSent);
      expect(sent).not.toContain(SECRET_PATH);
      expect(sent).not.toContain('ENOENT');
      expect(sent).not.toMatch(STACK_FRAME);
      expect(sent).not.toContain(HERE);
      // The operator still learns what happened, on the server side.
      expect(reported).toHaveLength(1);
      expect(reported[0]?.what).toBe(`tool "${tool}" threw`);
      expect(String(reported[0]?.error)).toContain(SECRET_PATH);
    },
  );
});

describe('handler failures with exposeErrorMessages on', () => {
  it.each(['sync', 'async'])(
    'a %s failure sends the message as it is, never the stack',
    async (tool) => {
      const { client, serverSent } = await serve(true);
      const result = await client.callTool(tool);
      // Documented: the message goes out verbatim, path included; only ToolError messages are
      // meant for the client, so a server that turns this on must word its errors for it.
      expect(result).toEqual({
        content: [
          { type: 'text', text: `ENOENT: no such file or directory, open '${SECRET_PATH}'` },
        ],
        isError: true,
      });
      const sent = wire(serverSent);
      expect(sent).not.toMatch(STACK_FRAME);
      expect(sent).not.toContain(HERE);
    },
  );

  it('a thrown non-Error still sends the generic message', async () => {
    const { client, serverSent } = await serve(true);
    expect(await client.callTool('string')).toEqual({
      content: [{ type: 'text', text: 'Tool "string" failed with an internal error' }],
      isError: true,
    });
    expect(wire(serverSent)).not.toContain(SECRET_PATH);
  });
});

describe('failures meant for the client', () => {
  it.each([false, true])(
    'a ToolError sends its message and no stack (exposeErrorMessages %s)',
    async (expose) => {
      const { client, serverSent, reported } = await serve(expose);
      expect(await client.callTool('tool-error')).toEqual({
        content: [{ type: 'text', text: 'The city is unknown' }],
        isError: true,
      });
      expect(wire(serverSent)).not.toMatch(STACK_FRAME);
      expect(reported).toEqual([]);
    },
  );

  it('an RpcError becomes the protocol error it names, without a stack', async () => {
    const { client, serverSent } = await serve(false);
    await expect(client.callTool('rpc-error')).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Bad cursor',
    });
    const sent = wire(serverSent);
    expect(sent).toContain('"message":"Bad cursor"');
    expect(sent).not.toMatch(STACK_FRAME);
    expect(sent).not.toContain(HERE);
  });
});

/**
 * Issue 20: a stdio server that died while the library's client started it failed
 * `McpClient.connect` with a bare "Connection closed", where the CLI said the exit status and
 * the last stderr lines. Now the stdio transport keeps its stderr's end by default (`stderr:
 * 'forward'`: passed through as before, and remembered) and the connection's requests fail with
 * a `ServerExitedError` (a `closed` LocalError) whose message says how the server ended and
 * quotes those lines, and whose fields carry them (`exitCode`, `signal`, `stderrTail`, `command`,
 * `args`); so do requests of a connection whose server dies later, and those made after it.
 * Failed before the fix: the rejection was "Connection closed", with none of these fields.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client.js';
import { LocalError } from '../../src/index.js';
import { ServerExitedError, StdioClientTransport } from '../../src/stdio.js';
import { EVERYTHING } from '../support/paths.js';

const DYING =
  "console.error('loading config'); console.error('Error: no such file'); process.exit(3)";

/** What `connect` rejected with. */
async function connectFailure(transport: StdioClientTransport): Promise<unknown> {
  const client = new McpClient({ name: 'issue-20', version: '1' }, { protocolEra: 'legacy' });
  try {
    await client.connect(transport);
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
  throw new Error('connect succeeded');
}

describe('issue 20: the library says why a stdio server it started is gone', () => {
  it('connect rejects with the exit code and the last stderr lines, in the message and as fields', async () => {
    const error = await connectFailure(
      new StdioClientTransport({ command: process.execPath, args: ['-e', DYING] }),
    );
    expect(error).toBeInstanceOf(ServerExitedError);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({
      code: 'closed',
      exitCode: 3,
      signal: null,
      stderrTail: 'loading config\nError: no such file',
      command: process.execPath,
      args: ['-e', DYING],
    });
    const { message } = error as Error;
    expect(message).toContain(`The server process (${process.execPath} -e "console.error(`);
    expect(message).toMatch(
      /\) exited with code 3; its last stderr lines:\n {2}\| loading config\n {2}\| Error: no such file$/,
    );
  });

  it('names the signal that ended it, and says when it wrote nothing', async () => {
    const error = await connectFailure(
      new StdioClientTransport({
        command: process.execPath,
        args: ['-e', "process.kill(process.pid, 'SIGKILL')"],
      }),
    );
    expect(error).toMatchObject({
      code: 'closed',
      exitCode: null,
      signal: 'SIGKILL',
      stderrTail: '',
    });
    expect((error as Error).message).toMatch(
      /\) was killed by SIGKILL without writing anything on stderr$/,
    );
  });

  it('with its stderr elsewhere, the exit status still', async () => {
    const error = await connectFailure(
      new StdioClientTransport({
        command: process.execPath,
        args: ['-e', DYING],
        stderr: 'ignore',
      }),
    );
    expect(error).toMatchObject({ exitCode: 3, stderrTail: '' });
    expect((error as Error).message).toMatch(/\) exited with code 3$/);
  });

  it('a server that dies during a session fails the request in flight and later ones the same way', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [EVERYTHING] });
    const client = new McpClient({ name: 'issue-20', version: '1' }, { protocolEra: 'legacy' });
    await client.connect(transport);
    try {
      const call = client.callTool('long_running', { steps: 100, delayMs: 100 });
      const failed = call.then(
        () => undefined,
        (error: unknown) => error,
      );
      process.kill(transport.pid ?? 0, 'SIGKILL');
      const error = await failed;
      expect(error).toBeInstanceOf(ServerExitedError);
      expect(error).toMatchObject({ signal: 'SIGKILL' });
      await expect(client.listTools()).rejects.toBe(error);
    } finally {
      await client.close();
    }
  });
});

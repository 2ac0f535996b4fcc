/**
 * @module `toolwire list` and `toolwire call`: start a stdio server, talk to it with the client,
 * print readable output (or JSON), and shut the server down the way the spec says.
 */
import type { Writable } from 'node:stream';
import { McpClient } from '../client.js';
import { RpcError } from '../index.js';
import { HttpClientTransport } from '../http.js';
import { StdioClientTransport } from '../stdio.js';
import type { CallCommand, ListCommand, ServerTarget } from './args.js';
import { progressBar, type BarStream } from './progressBar.js';
import { renderResult, renderTool } from './render.js';
import { typedArguments } from './typedArguments.js';

/** Where a command writes. */
export interface CommandIo {
  stdout: Pick<Writable, 'write'>;
  stderr: BarStream;
}

async function withClient<T>(
  target: ServerTarget,
  run: (client: McpClient) => Promise<T>,
): Promise<T> {
  const client = new McpClient({ name: 'toolwire-cli', version: '0.1.0' });
  const transport =
    target.kind === 'url'
      ? new HttpClientTransport(target.url, { headers: target.headers })
      : new StdioClientTransport({ command: target.command, args: target.args, stderr: 'inherit' });
  await client.connect(transport);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

/** `toolwire list` */
export async function listCommand(command: ListCommand, io: CommandIo): Promise<number> {
  return withClient(command.target, async (client) => {
    const tools = await client.listTools();
    if (command.jsonOutput) io.stdout.write(JSON.stringify({ tools }, null, 2) + '\n');
    else
      io.stdout.write(
        tools.length === 0 ? 'No tools.\n' : tools.map(renderTool).join('\n\n') + '\n',
      );
    return 0;
  });
}

/** `toolwire call` */
export async function callCommand(command: CallCommand, io: CommandIo): Promise<number> {
  return withClient(command.target, async (client) => {
    const tools = await client.listTools();
    const tool = tools.find((t) => t.name === command.tool);
    const args = typedArguments(tool, command.json, command.pairs);
    const bar = progressBar(io.stderr);
    let lastStatus: string | undefined;
    let result;
    try {
      result = await client.callTool(command.tool, args, {
        onprogress: bar.update,
        resetTimeoutOnProgress: true,
        ...(command.task ? { task: true } : {}),
        ontaskstatus: (task) => {
          const line = `${task.status}\u0000${task.statusMessage ?? ''}`;
          if (line === lastStatus) return; // polls repeat the status; print changes only
          lastStatus = line;
          bar.done();
          const message = task.statusMessage === undefined ? '' : `: ${task.statusMessage}`;
          io.stderr.write(`task ${task.taskId} ${task.status}${message}\n`);
        },
        ...(command.timeoutMs !== undefined ? { timeoutMs: command.timeoutMs } : {}),
      });
    } catch (error) {
      bar.done();
      if (error instanceof RpcError) {
        io.stderr.write(`Error ${error.code}: ${error.message}\n`);
        return 3;
      }
      throw error;
    }
    bar.done();
    if (command.jsonOutput) io.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else if (result.isError) io.stderr.write(renderResult(result) + '\n');
    else io.stdout.write(renderResult(result) + '\n');
    return result.isError ? 1 : 0;
  });
}

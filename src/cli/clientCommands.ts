/**
 * @module `toolwire list` and `toolwire call`: connect to a server (a URL, or a stdio server the
 * command starts), talk to it with the client, print readable output (or JSON), and shut the
 * server down the way the spec says. Ctrl-C cancels what is running; failures are described by
 * failure.ts.
 */
import { MODERN_PROTOCOL_VERSIONS } from '../protocol/versions.js';
import type { Writable } from 'node:stream';
import { renamedFrom } from '../client/approval/renames.js';
import { toolTextFindings } from '../client/approval/toolText.js';
import { McpClient } from '../client/mcpClient.js';
import type { CallToolResult, Tool, Transport } from '../index.js';
import { StdioClientTransport } from '../transports/stdio/clientTransport.js';
import type { CallCommand, ListCommand, ServerTarget } from './args.js';
import { ApprovalsFile } from './approvalsFile.js';
import { openAuditLog } from './auditLog.js';
import { confirmationPolicy } from './callConfirmation.js';
import { byCloseness } from './closest.js';
import { readConfig } from './config.js';
import { terminalElicitation } from './terminalElicitation.js';
import { commandSampling } from './samplingCommand.js';
import { terminalSampling } from './terminalSampling.js';
import { CliFailure, describeFailure, EXIT, type FailureContext } from './failure.js';
import { interruptOnSigint, type Interrupt, type SignalSource } from './interrupt.js';
import { progressBar, type BarStream } from './progressBar.js';
import { renderResult, renderTool, undeclaredTaskSupport } from './render.js';
import { serverIdentity } from './serverIdentity.js';
import type { StoredAuthorization } from './storedAuthorization.js';
import { terminalJson, terminalLine } from './terminalText.js';
import { TrackedTransport } from './trackedTransport.js';
import { typedArguments } from './typedArguments.js';
import { packageVersion } from './version.js';

/** Where a command writes, and where it hears Ctrl-C. */
export interface CommandIo {
  stdout: Pick<Writable, 'write'>;
  stderr: BarStream;
  signals?: SignalSource;
  /** Where a confirmation is answered (default: the process's stdin). */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** How long a cancellation may take to reach the server after Ctrl-C. */
const CANCEL_GRACE_MS = 2000;
/** How many tool names an "unknown tool" message lists. */
const NAMES_SHOWN = 10;

interface Session {
  client: McpClient;
  transport: TrackedTransport;
  stdio: StdioClientTransport | undefined;
  /** The stored tokens' authorization of a URL target. */
  auth: StoredAuthorization | undefined;
}

/**
 * The transport of the target, and for a URL the stored tokens' authorization. The HTTP client
 * and the OAuth client are loaded only for a URL: a stdio target starts without them.
 */
async function transportFor(
  target: ServerTarget,
  maxMessageBytes: number | undefined,
): Promise<{ inner: Transport; auth?: StoredAuthorization }> {
  const limit = maxMessageBytes === undefined ? {} : { maxMessageBytes };
  if (target.kind === 'url') {
    const [{ HttpClientTransport }, { storedAuthorization }] = await Promise.all([
      import('../transports/http/client/httpClient.js'),
      import('./storedAuthorization.js'),
    ]);
    const auth = storedAuthorization(target);
    const inner = new HttpClientTransport(target.url, {
      headers: target.headers,
      ...limit,
      ...(auth ? { auth } : {}),
    });
    return auth ? { inner, auth } : { inner };
  }
  const inner = new StdioClientTransport({
    command: target.command,
    args: target.args,
    stderr: 'forward',
    // Ctrl-C is for this program: it cancels the call, then shuts the server down in order.
    detached: true,
    ...limit,
  });
  return { inner };
}

/**
 * Connects, runs `work`, and closes. Any failure is rethrown as a described {@link CliFailure}
 * (a stdio server's exit status and stderr tail included); Ctrl-C becomes `interrupted`, after
 * the cancellation had a moment to reach the server.
 */
async function withSession<T>(
  command: ListCommand | CallCommand,
  io: CommandIo,
  work: (session: Session, interrupt: Interrupt) => Promise<T>,
): Promise<T> {
  const server = serverIdentity(command.target);
  const config = readConfig();
  const auditPath = command.audit ?? config.audit;
  const audit = auditPath === undefined ? undefined : openAuditLog(auditPath, server);
  const interrupt = interruptOnSigint(io.signals);
  const { inner, auth } = await transportFor(command.target, command.maxMessageBytes);
  const stdio = inner instanceof StdioClientTransport ? inner : undefined;
  const transport = new TrackedTransport(inner);
  const approvals = new ApprovalsFile();
  // Annotations decide only for a server the person marked trusted: on the command line, in
  // config.json, or kept in the approvals file (approvals trust, the console's toggle).
  const trusted =
    command.kind === 'call' &&
    command.confirm === 'unless-read-only' &&
    (command.trustAnnotations ||
      (config.trustedServers ?? []).includes(server) ||
      (await approvals.isTrusted(server)));
  // The listing the question flags look-alike names against: the client's, once it exists.
  const listed = {
    tools: (): readonly Tool[] => [],
    undeclaredTask: (): string | undefined => undefined,
  };
  const approval =
    command.kind === 'call'
      ? confirmationPolicy(
          {
            mode: command.confirm,
            yes: command.yes,
            store: approvals.forServer(server),
            server,
            trusted,
            listing: () => listed.tools(),
            undeclaredTask: () => listed.undeclaredTask(),
          },
          { input: io.stdin ?? process.stdin, output: io.stderr, signal: interrupt.signal },
        )
      : undefined;
  const input = io.stdin ?? process.stdin;
  // On a terminal, `call` answers the server's elicitations by asking; off one it declares none.
  const onTerminal = command.kind === 'call' && input.isTTY === true && io.stderr.isTTY === true;
  const prompt = { input, output: io.stderr, signal: interrupt.signal };
  // Sampling: the configured model command, with the person asked on a terminal (or allowing
  // it all with --yes); without one, shown and refused on a terminal; off one, not declared.
  const sampling =
    command.kind === 'call' && config.sampling && (onTerminal || command.yes)
      ? commandSampling(config.sampling, command.yes ? undefined : prompt)
      : onTerminal
        ? terminalSampling(io.stderr)
        : undefined;
  const client = new McpClient(
    { name: 'toolwire-cli', version: packageVersion() },
    {
      protocolEra: command.era,
      ...(approval ? { approval } : {}),
      ...(audit ? { audit: audit.sink } : {}),
      handlers: {
        ...(onTerminal ? { elicitation: terminalElicitation(prompt) } : {}),
        ...(sampling ? { sampling } : {}),
      },
      ...(onTerminal ? { elicitationModes: ['form', 'url'] as const } : {}),
    },
  );
  listed.tools = () => client.cachedTools ?? [];
  listed.undeclaredTask = () => undeclaredTaskSupport(client);
  try {
    await client.connect(transport, { signal: interrupt.signal });
    return await work({ client, transport, stdio, auth }, interrupt);
  } catch (error) {
    if (interrupt.interrupted) {
      await transport.settled(CANCEL_GRACE_MS);
      throw new CliFailure({
        kind: 'interrupted',
        message: 'interrupted; the call was cancelled',
        exitCode: EXIT.interrupted,
      });
    }
    const context: FailureContext = {
      ...(command.maxMessageBytes !== undefined
        ? { maxMessageBytes: command.maxMessageBytes }
        : {}),
      ...(command.target.kind === 'url' ? { url: command.target.url } : {}),
    };
    if (stdio && command.target.kind === 'command') {
      context.command = [command.target.command, ...command.target.args];
      const exit = await stdio.waitForExit(500);
      if (exit) context.exit = exit;
      context.stderrTail = stdio.stderrTail;
    }
    throw new CliFailure(describeFailure(error, context));
  } finally {
    await client.close().catch(() => {});
    interrupt.dispose();
    audit?.close();
  }
}

/** `toolwire list` */
export async function listCommand(command: ListCommand, io: CommandIo): Promise<number> {
  return withSession(command, io, async ({ client }, interrupt) => {
    const tools = await client.listTools({ signal: interrupt.signal });
    const protocolVersion = client.protocolVersion;
    if (command.jsonOutput) io.stdout.write(terminalJson({ protocolVersion, tools }, 2) + '\n');
    else {
      const notes = await listingNotes(tools, serverIdentity(command.target));
      io.stdout.write(
        (tools.length === 0
          ? 'No tools.\n'
          : tools
              .map((t) => renderTool(t, notes.get(t.name), undeclaredTaskSupport(client)))
              .join('\n\n') + '\n') +
          // A server that speaks the stateless revision says so (the era --era auto found).
          (protocolVersion === MODERN_PROTOCOL_VERSIONS[0]
            ? `\n(protocol ${protocolVersion}: stateless requests, no session)\n`
            : ''),
      );
    }
    return EXIT.ok;
  });
}

/**
 * What a person should know of each listed tool: hidden characters, a name that looks like
 * another's, and a tool that repeats one allowed always under a name no longer listed (renamed).
 */
async function listingNotes(
  tools: readonly Tool[],
  server: string,
): Promise<Map<string, string[]>> {
  const notes = new Map<string, string[]>();
  for (const [name, findings] of toolTextFindings(tools))
    notes.set(
      name,
      findings.map((f) => f.message),
    );
  // The approvals file may be missing or unreadable: a listing does not need it.
  const kept = await new ApprovalsFile()
    .read()
    .then((doc) => Object.values(doc.servers[server] ?? {}))
    .catch(() => []);
  const listed = new Set(tools.map((t) => t.name));
  const gone = kept.map((a) => a.definition).filter((d) => !listed.has(d.name));
  for (const tool of tools) {
    const renamed = renamedFrom(tool, gone);
    if (renamed)
      notes.set(tool.name, [
        ...(notes.get(tool.name) ?? []),
        `renamed from "${renamed.from}"? ${renamed.resemblance === 'same' ? 'the same' : 'a similar'} definition, allowed always under that name`,
      ]);
  }
  return notes;
}

/**
 * The usage failure for a tool the server does not list: the closest names first; `hint` says
 * why it may be hidden.
 */
export function unknownTool(name: string, tools: readonly Tool[], hint = ''): CliFailure {
  const names = byCloseness(
    name,
    tools.map((t) => t.name),
  );
  // Names come from the server: one per line-safe piece, so none can fake a line of its own.
  const shown = names.slice(0, NAMES_SHOWN).map(terminalLine).join(', ');
  const more = names.length > NAMES_SHOWN ? `, and ${names.length - NAMES_SHOWN} more` : '';
  return new CliFailure({
    kind: 'unknown-tool',
    message:
      (names.length === 0
        ? `call: unknown tool ${JSON.stringify(name)}: the server offers no tools`
        : `call: unknown tool ${JSON.stringify(name)}. Tools: ${shown}${more} (see toolwire list)`) +
      hint,
    exitCode: EXIT.usage,
    details: { tool: name, tools: names },
  });
}

/** `toolwire call` */
export async function callCommand(command: CallCommand, io: CommandIo): Promise<number> {
  return withSession(command, io, async ({ client, auth }, interrupt) => {
    const tools = await client.listTools({ signal: interrupt.signal });
    const tool = tools.find((t) => t.name === command.tool);
    if (!tool) throw unknownTool(command.tool, tools, await auth?.hiddenToolHint());
    const args = typedArguments(tool, command.json, command.pairs);
    const bar = progressBar(io.stderr);
    interrupt.onInterrupt(bar.done);
    let result: CallToolResult;
    try {
      result = await client.callTool(command.tool, args, {
        signal: interrupt.signal,
        onprogress: bar.update,
        resetTimeoutOnProgress: true,
        ...(command.task ? { task: true } : {}),
        // The client reports each status change once, in order, the terminal one included.
        ontaskstatus: (task) => {
          if (interrupt.interrupted) return; // the call is being cancelled: its end is ours to tell
          bar.done();
          const message = task.statusMessage === undefined ? '' : `: ${task.statusMessage}`;
          io.stderr.write(terminalLine(`task ${task.taskId} ${task.status}${message}`) + '\n');
        },
        ...(command.timeoutMs !== undefined ? { timeoutMs: command.timeoutMs } : {}),
      });
    } finally {
      bar.done();
    }
    if (command.jsonOutput) io.stdout.write(terminalJson(result, 2) + '\n');
    else if (result.isError) io.stderr.write(renderResult(result) + '\n');
    else io.stdout.write(renderResult(result) + '\n');
    return result.isError ? EXIT.toolError : EXIT.ok;
  });
}

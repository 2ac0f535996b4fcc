/**
 * @module What the console shows and does, apart from HTTP: the servers it reaches (a
 * {@link ServerLink} each: connecting, signing in, connected with its tools kept fresh on
 * `list_changed`, or failed and retried from the page); calls started from the
 * page, with their progress, outcome and a cancel; the confirmations the approval policy asks
 * for, waiting for the person's answer; and the history (the clients' audit trail), kept in
 * memory (the last 1000 events) and in its file (read back when a console starts). Every change
 * is an event sent to the pages that listen.
 */
import type {
  ApprovalDecision,
  ApprovalPolicy,
  ApprovalRequest,
  ApprovalStore,
  AuditEvent,
} from '../../client.js';
import { ServerToolNames } from '../../client/approval/serverToolNames.js';
import { McpClient } from '../../client/mcpClient.js';
import type { CliEra } from '../argValues.js';
import type { CallToolResult, ElicitResult, LoggingMessageParams } from '../../index.js';
import { LocalError, RpcError } from '../../jsonrpc/errors.js';
import type { SamplingConfig } from '../config.js';
import { modelOf, replyOf, runModelCommand } from '../samplingCommand.js';
import { packageVersion } from '../version.js';
import type { HistoryFile } from './historyFile.js';
import { isElicitResult } from './elicitAnswer.js';
import { shortName } from './shortName.js';
import { shownRequest, type ShownRequest } from './shownRequest.js';
import {
  ServerLink,
  type AddOptions,
  type ServerConnector,
  type TrustSetting,
} from './serverLink.js';

/** What a page hears. */
export type ConsoleEvent =
  | { type: 'server'; server: ReturnType<ServerLink['summary']> }
  /** The person marked a server trusted or not (from any page). */
  | { type: 'trust'; server: string; trustAnnotations: boolean }
  | { type: 'log'; server: string; message: LoggingMessageParams }
  /** `server`: the id of a server of this console; none for events read from the history file. */
  | { type: 'audit'; server: string; target: string; event: AuditEvent & { at: string } }
  | { type: 'confirm'; id: string; server: string; request: ShownRequest }
  | { type: 'confirmed'; id: string; decision: ApprovalDecision }
  | { type: 'input'; id: string; server: string; kind: InputKind; params: unknown }
  | { type: 'answered'; id: string }
  | {
      type: 'call-started';
      call: string;
      server: string;
      tool: string;
      arguments: unknown;
      /** Asked to run as a task (a tool that requires one runs as one anyway). */
      task: boolean;
    }
  | { type: 'progress'; call: string; progress: number; total?: number; message?: string }
  | { type: 'task'; call: string; taskId: string; status: string; statusMessage?: string }
  | {
      type: 'call-ended';
      call: string;
      result?: CallToolResult;
      error?: string;
      /**
       * The structured content checked against the tool's output schema: `valid`, or `invalid`
       * (the result was refused: `error` says why). Absent when there was nothing to check.
       */
      output?: 'valid' | 'invalid';
      /** Cancelled from the console (then `error` is "Cancelled"). */
      cancelled?: boolean;
    };

const HISTORY = 1000;

/** The server requests the page answers. */
export type InputKind = 'elicitation' | 'sampling';

/** The person's answer to a server request; `model`: the model whose draft was sent unchanged. */
interface Answered {
  answer: unknown;
  model?: string;
}

/** How many drafts of one request are remembered. */
const DRAFTS = 8;

/** The spec's code for a sampling request the user rejected. */
const USER_REJECTED = -1;

/** The console's state and actions. */
export class ConsoleSession {
  readonly servers: Map<string, ServerLink> = new Map<string, ServerLink>();
  /** Every server's tools under one set of names, as a model would be offered them. */
  readonly names: ServerToolNames = new ServerToolNames();
  private readonly trust = new Map<string, TrustSetting>();
  /**
   * The newest audit events, what a page shows as the history. Only those: a call's progress,
   * logs and results (which can be large) would push them out and be sent again to every page.
   */
  readonly history: Array<Extract<ConsoleEvent, { type: 'audit' }> & { at: string }> = [];
  private readonly listeners = new Set<(event: ConsoleEvent & { at: string }) => void>();
  private readonly pending = new Map<
    string,
    { server: string; request: ShownRequest; resolve: (d: ApprovalDecision) => void }
  >();
  private readonly running = new Map<string, AbortController>();
  private readonly inputs = new Map<
    string,
    {
      server: string;
      kind: InputKind;
      params: unknown;
      resolve: (answered: Answered) => void;
      /** What runs for it (a model command's draft): stopped once it is answered. */
      stops: Set<() => void>;
      /** A draft is being written: one at a time per request. */
      drafting: boolean;
      /** The model command's drafts for it, newest last: a reply sent as one is the model's. */
      drafts: Array<{ text: string; model: string }>;
    }
  >();
  private nextId = 1;
  private readonly closer = new AbortController();
  /** Aborted when the console closes: what serves pages (their event streams) ends with it. */
  readonly closing: AbortSignal = this.closer.signal;

  private readonly historyFile: HistoryFile | undefined;
  /** The model command that can draft a reply to a sampling request (config.json). */
  readonly model: SamplingConfig | undefined;

  /** How each server's session is opened (`auto`: in the era the server speaks). */
  private readonly era: CliEra;

  /**
   * `historyFile`: where the history is kept (its newest events are shown again); `model`: the
   * model command the person may ask for a draft reply to a sampling request; `era`: how
   * sessions are opened (default `auto`).
   */
  constructor(
    options: {
      historyFile?: HistoryFile | undefined;
      model?: SamplingConfig | undefined;
      era?: CliEra | undefined;
    } = {},
  ) {
    this.historyFile = options.historyFile;
    this.model = options.model;
    this.era = options.era ?? 'auto';
    for (const { target, ...event } of this.historyFile?.recent(HISTORY) ?? [])
      this.history.push({ type: 'audit', server: '', target, event, at: event.at });
  }

  /** The model command as the page names it (its whole command line: the page is local). */
  get modelName(): string | undefined {
    return this.model ? [this.model.command, ...this.model.args].join(' ') : undefined;
  }

  /**
   * Asks the model command for a draft reply to a waiting sampling request: its text, for the
   * person to read, change and send (or not); `busy` while an earlier draft of it is being
   * written. Stopped when the request is answered meanwhile.
   */
  async draftReply(id: string): Promise<{ text: string } | 'busy' | undefined> {
    const input = this.inputs.get(id);
    if (!input || input.kind !== 'sampling' || !this.model) return undefined;
    if (input.drafting) return 'busy';
    input.drafting = true;
    const stop = new AbortController();
    const abort = (): void => stop.abort();
    input.stops.add(abort);
    try {
      const printed = await runModelCommand(this.model, JSON.stringify(input.params), stop.signal);
      const reply = replyOf(printed, modelOf(this.model));
      const blocks = Array.isArray(reply.content) ? reply.content : [reply.content];
      const text = blocks
        .map((b) => (b.type === 'text' ? b.text : `[${String(b.type)}]`))
        .join('\n');
      // The model it says it is (a JSON reply's `model`), else the program's name.
      input.drafts.push({ text, model: reply.model });
      if (input.drafts.length > DRAFTS) input.drafts.shift();
      return { text };
    } finally {
      input.drafting = false;
      input.stops.delete(abort);
    }
  }

  /**
   * Adds a server and connects to it: resolves when that first attempt ends, connected or failed
   * (the link says which; the page can retry). `target`: its identity.
   */
  async add(
    target: string,
    connector: ServerConnector,
    options: AddOptions = {},
  ): Promise<ServerLink> {
    const id = `s${this.nextId++}`;
    const taken = new Set([...this.servers.values()].map((l) => l.name));
    const link = new ServerLink({ id, target, name: shortName(target, taken) }, connector, {
      newClient: (l) => this.newClient(l, options.approvals),
      changed: (l) => this.linkChanged(l),
    });
    link.trustAnnotations = options.trust?.trusted ?? false;
    link.trustedInConfig = options.trust?.fixed ?? false;
    if (options.trust) this.trust.set(id, options.trust);
    this.servers.set(id, link);
    await link.connect();
    return link;
  }

  /** A link's state or tools changed: every server is shown again (look-alikes span servers). */
  private linkChanged(link: ServerLink): void {
    const before = this.names.list().filter((e) => e.server === link.name);
    this.names.set(link.name, link.tools);
    const toolsChanged =
      before.length !== link.tools.length || before.some((e, i) => e.tool !== link.tools[i]);
    for (const each of toolsChanged ? this.servers.values() : [link])
      this.emit({ type: 'server', server: each.summary(this.names) });
  }

  /**
   * Marks a server trusted or not, as the person chose on a page, and keeps it (per server);
   * `fixed` when config.json decides it.
   */
  async setTrust(id: string, trusted: boolean): Promise<'fixed' | 'unknown' | boolean> {
    const link = this.servers.get(id);
    if (!link) return 'unknown';
    if (link.trustedInConfig) return 'fixed';
    await this.trust.get(id)?.save?.(trusted);
    link.trustAnnotations = trusted;
    this.emit({ type: 'trust', server: id, trustAnnotations: trusted });
    this.emit({ type: 'server', server: link.summary(this.names) });
    return trusted;
  }

  /** One attempt's client: its callbacks reach the page through the link. */
  private newClient(link: ServerLink, approvals: ApprovalStore | undefined): McpClient {
    const id = link.id;
    const client: McpClient = new McpClient(
      { name: 'toolwire-console', version: packageVersion() },
      {
        protocolEra: this.era,
        approval: this.policyOf(link, approvals),
        audit: (event) => this.emit({ type: 'audit', server: id, target: link.target, event }),
        // The page answers the server's questions: a form or a URL, and a model's reply.
        // A request the server cancels, or that dies with its connection, leaves the page.
        handlers: {
          elicitation: async (params, context) =>
            (await this.askInput(id, { kind: 'elicitation', params }, context.signal))
              .answer as ElicitResult,
          sampling: async (params, context) => {
            const { answer, model } = await this.askInput(
              id,
              { kind: 'sampling', params },
              context.signal,
            );
            const text = (answer as { text?: unknown }).text;
            if (typeof text !== 'string')
              throw new RpcError(USER_REJECTED, 'User rejected sampling request');
            // A draft of the model command sent as it was is the model's; else the person's words.
            return {
              role: 'assistant',
              content: { type: 'text', text },
              model: model ?? 'a person, in toolwire console',
            };
          },
        },
        elicitationModes: ['form', 'url'],
        onToolsChanged: (tools) => link.toolsChanged(client, tools),
        onLog: (message) => this.emit({ type: 'log', server: id, message }),
        onclose: () => link.ended(client),
      },
    );
    return client;
  }

  /**
   * The approval policy of a link's clients: annotations trusted while the person trusts the
   * server (read at each call: the page can change it), every question put on the pages.
   */
  private policyOf(link: ServerLink, approvals: ApprovalStore | undefined): ApprovalPolicy {
    return {
      ...(approvals ? { store: approvals } : {}),
      get trustAnnotations() {
        return link.trustAnnotations;
      },
      confirm: (request) => this.ask(link, request),
    };
  }

  /** Listens to every event; returns the stop. */
  subscribe(listener: (event: ConsoleEvent & { at: string }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The server requests waiting for an answer. */
  waitingInputs(): Array<{ id: string; server: string; kind: InputKind; params: unknown }> {
    return [...this.inputs].map(([id, i]) => ({
      id,
      server: i.server,
      kind: i.kind,
      params: i.params,
    }));
  }

  /**
   * Answers a server request: an elicitation's result (`action`, `content`), or a sampling reply
   * (`text`; none rejects it). False when none waits under that id.
   */
  answerInput(id: string, answer: unknown): boolean | 'invalid' {
    const input = this.inputs.get(id);
    if (!input) return false;
    if (input.kind === 'elicitation' && !isElicitResult(answer)) return 'invalid';
    this.inputs.delete(id);
    for (const stop of input.stops) stop();
    this.emit({ type: 'answered', id });
    const text = (answer as { text?: unknown } | null)?.text;
    const draft = input.drafts.findLast((d) => d.text === text);
    input.resolve(draft ? { answer, model: draft.model } : { answer });
    return true;
  }

  /**
   * Puts a server request before the person; settled by their answer, or (with a cancel) when
   * `signal` aborts: the server cancelled it or the connection closed, so nobody waits for it.
   */
  private askInput(
    server: string,
    request: { kind: InputKind; params: unknown },
    signal: AbortSignal,
  ): Promise<Answered> {
    const id = `i${this.nextId++}`;
    const { kind, params } = request;
    return new Promise((resolve) => {
      const gone = (): void => void this.answerInput(id, { action: 'cancel' });
      if (signal.aborted) return resolve({ answer: { action: 'cancel' } });
      signal.addEventListener('abort', gone, { once: true });
      const settle = (answered: Answered): void => {
        signal.removeEventListener('abort', gone);
        resolve(answered);
      };
      this.inputs.set(id, {
        server,
        kind,
        params,
        resolve: settle,
        stops: new Set(),
        drafting: false,
        drafts: [],
      });
      this.emit({ type: 'input', id, server, kind, params });
    });
  }

  /** The confirmations waiting for an answer. */
  waiting(): Array<{ id: string; server: string; request: ShownRequest }> {
    return [...this.pending].map(([id, p]) => ({ id, server: p.server, request: p.request }));
  }

  /** Starts a call; its progress and end are events. Resolves with the call's id. */
  call(
    serverId: string,
    request: { tool: string; arguments: Record<string, unknown>; task?: boolean },
  ): string {
    const { tool, arguments: args } = request;
    const options = { task: request.task === true };
    const link = this.servers.get(serverId);
    const client = link?.client;
    if (!client) throw new RangeError(`Not connected to ${serverId}`);
    const call = `c${this.nextId++}`;
    const controller = new AbortController();
    this.running.set(call, controller);
    this.emit({
      type: 'call-started',
      call,
      server: serverId,
      tool,
      arguments: args,
      task: options.task,
    });
    client
      .callTool(tool, args, {
        signal: controller.signal,
        resetTimeoutOnProgress: true,
        // A tool that requires a task always runs as one; `task` asks for it when allowed.
        ...(options.task ? { task: true } : {}),
        ontaskstatus: (task) =>
          this.emit({
            type: 'task',
            call,
            taskId: task.taskId,
            status: task.status,
            ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
          }),
        onprogress: (p) =>
          this.emit({
            type: 'progress',
            call,
            progress: p.progress,
            ...(p.total !== undefined ? { total: p.total } : {}),
            ...(p.message !== undefined ? { message: p.message } : {}),
          }),
      })
      .then(
        (result) => {
          // The client checks every successful result of a tool with an output schema.
          const checked =
            result.isError !== true &&
            (client.cachedTools ?? link.tools).find((t) => t.name === tool)?.outputSchema !==
              undefined;
          this.emit({ type: 'call-ended', call, result, ...(checked ? { output: 'valid' } : {}) });
        },
        (error: unknown) =>
          this.emit(
            controller.signal.aborted
              ? // The person cancelled it: said as such, whatever the client's error reads.
                { type: 'call-ended', call, error: 'Cancelled', cancelled: true }
              : {
                  type: 'call-ended',
                  call,
                  error: error instanceof Error ? error.message : String(error),
                  ...(error instanceof LocalError && error.code === 'invalid-output'
                    ? { output: 'invalid' }
                    : {}),
                },
          ),
      )
      .finally(() => this.running.delete(call));
    return call;
  }

  /** Cancels a running call; false when it is not running. */
  cancel(call: string): boolean {
    const controller = this.running.get(call);
    controller?.abort(new Error('Cancelled from the console'));
    return controller !== undefined;
  }

  /** Answers a confirmation; false when none waits under that id. */
  decide(id: string, decision: ApprovalDecision): boolean {
    const pending = this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id);
    this.emit({ type: 'confirmed', id, decision });
    pending.resolve(decision);
    return true;
  }

  /** Closes every connection; pending confirmations are denied. */
  async close(): Promise<void> {
    this.closer.abort();
    for (const id of [...this.pending.keys()]) this.decide(id, 'deny');
    for (const id of [...this.inputs.keys()]) this.answerInput(id, { action: 'cancel' });
    for (const controller of this.running.values()) controller.abort();
    await Promise.all([...this.servers.values()].map((s) => s.close()));
    this.historyFile?.close();
  }

  /**
   * Puts a confirmation before the person. A call that ends first (cancelled, its connection
   * gone) takes the question down: denied, as nobody allowed it.
   */
  private ask(link: ServerLink, request: ApprovalRequest): Promise<ApprovalDecision> {
    const id = `q${this.nextId++}`;
    const server = link.id;
    const { signal, ...asked } = request;
    // The page is sent the definitions in the shape it reads, with what to watch for.
    const shown = shownRequest(
      asked,
      link,
      this.names.list().map((e) => e.tool.name),
    );
    return new Promise((resolve) => {
      const gone = (): void => void this.decide(id, 'deny');
      if (signal?.aborted) return resolve('deny');
      signal?.addEventListener('abort', gone, { once: true });
      const settle = (decision: ApprovalDecision): void => {
        signal?.removeEventListener('abort', gone);
        resolve(decision);
      };
      this.pending.set(id, { server, request: shown, resolve: settle });
      this.emit({ type: 'confirm', id, server, request: shown });
    });
  }

  private emit(event: ConsoleEvent): void {
    const stamped = { ...event, at: new Date().toISOString() };
    if (event.type === 'audit') {
      this.history.push({ ...event, at: stamped.at });
      if (this.history.length > HISTORY) this.history.splice(0, this.history.length - HISTORY);
      this.historyFile?.append(event.event, event.target);
    }
    for (const listener of this.listeners) listener(stamped);
  }
}

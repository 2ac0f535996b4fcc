/**
 * @module {@link ServerLink}: one server the console shows, through its whole life: connecting
 * (and signing in, for a protected server), connected with its tools, or failed with the reason,
 * which the person can retry from the page. Each attempt gets a new client and transport; a
 * connection that ends later (a stdio server that exits) turns the link back to failed.
 */
import type { ApprovalStore, McpClient, ServerToolNames } from '../../client.js';
import type { Implementation, Revision, Tool, Transport } from '../../index.js';
import { pageTool } from './pageTool.js';
import type { SignInRelay } from './signInRelay.js';
import { inCliTerms } from '../failure.js';

/** Whether the person trusts a server's annotations, and where that is kept. */
export interface TrustSetting {
  /** Trusted now. */
  readonly trusted: boolean;
  /** Trusted in config.json: not for the page to change. */
  readonly fixed?: boolean;
  /** Keeps a change made on the page (the approvals file, per server). */
  save?(trusted: boolean): Promise<unknown>;
}

/** How a server is added to the console. */
export interface AddOptions {
  /** Where "always allow" decisions go (the approvals file, for this server); else memory. */
  approvals?: ApprovalStore | undefined;
  /** Whether its annotations are trusted, and where a change is kept. */
  trust?: TrustSetting | undefined;
}

/** Where a server stands. */
export type LinkState = 'connecting' | 'connected' | 'failed';

/** What the page is told of a server (the page's `Server`, ui/types.ts). */
export interface ServerSummary {
  id: string;
  target: string;
  name: string;
  state: LinkState;
  error?: string;
  signInUrl?: string;
  serverInfo: Implementation | undefined;
  protocolVersion: Revision | undefined;
  /**
   * The server offers the tasks extension (2026-07-28): any call may ask for a task and the
   * server decides (its tools no longer say whether they support tasks).
   */
  tasksExtension: boolean;
  trustAnnotations: boolean;
  trustedInConfig: boolean;
  tools: Array<Tool & { exposedAs: string | undefined; findings: string[] }>;
}

/** How the console reaches one server. */
export interface ServerConnector {
  /** A new transport, for one attempt. */
  transport(): Transport;
  /** The OAuth sign-in of a protected server, shown on the page. */
  readonly signIn?: SignInRelay;
  /**
   * Why the last transport's connection ended, when it can tell more than the client's error (a
   * stdio server's exit status and what it last wrote to stderr).
   */
  explain?(): Promise<string | undefined>;
}

/** What the link needs from the console. */
export interface LinkHooks {
  /** A new client for one attempt (its callbacks know the link). */
  newClient(link: ServerLink): McpClient;
  /** The link's state, tools or sign-in changed. */
  changed(link: ServerLink): void;
}

/**
 * How long one attempt may take: a person signing in at the authorization server (five minutes)
 * with room for the rest of the handshake.
 */
const ATTEMPT_TIMEOUT_MS = 6 * 60_000;

/** The message of anything thrown, naming the console's flags for the library's options. */
const messageOf = (error: unknown) =>
  inCliTerms(error instanceof Error ? error.message : String(error));

/** One server of the console. */
export class ServerLink {
  state: LinkState = 'connecting';
  /** Why the last attempt failed, or why the connection ended. */
  error: string | undefined;
  /** The connected client. */
  client: McpClient | undefined;
  tools: Tool[] = [];
  /**
   * Trust its annotations: read-only tools run without asking (unless being read-only is new).
   * Off unless the person marked the server trusted (kept per server, not per console run).
   */
  trustAnnotations = false;
  /** Trusted in config.json: the page cannot take it back (config.json can). */
  trustedInConfig = false;
  readonly id: string;
  /** The server's identity: its URL, or the real paths of what it runs (serverIdentity.ts). */
  readonly target: string;
  /** The console's short name for it: the first part of the names its tools are exposed under. */
  readonly name: string;
  private attempt: { client: McpClient; cancelled: boolean } | undefined;

  constructor(
    named: { id: string; target: string; name: string },
    private readonly connector: ServerConnector,
    private readonly hooks: LinkHooks,
  ) {
    this.id = named.id;
    this.target = named.target;
    this.name = named.name;
    if (connector.signIn) connector.signIn.onchange = () => hooks.changed(this);
  }

  /** The authorization URL waiting for the person, while a sign-in runs. */
  get signInUrl(): string | undefined {
    return this.connector.signIn?.url;
  }

  /**
   * Connects (again): resolves when the attempt ends, connected or failed (never rejects). False
   * when connected or connecting already.
   */
  async connect(): Promise<boolean> {
    if (this.attempt || this.state === 'connected') return false;
    const client = this.hooks.newClient(this);
    const attempt = { client, cancelled: false };
    this.attempt = attempt;
    this.state = 'connecting';
    this.error = undefined;
    this.hooks.changed(this);
    try {
      await client.connect(this.connector.transport(), { timeoutMs: ATTEMPT_TIMEOUT_MS });
      this.tools = await client.listTools();
      this.client = client;
      this.state = 'connected';
      this.attempt = undefined;
    } catch (error) {
      // Why, before closing: the close itself ends a stdio server, which would hide its exit.
      const why = attempt.cancelled
        ? 'Cancelled from the console'
        : ((await this.connector.explain?.()) ?? messageOf(error));
      await client.close().catch(() => {});
      // Failed only once the attempt is over: a retry from the page starts a new one.
      this.attempt = undefined;
      this.state = 'failed';
      this.error = why;
    }
    this.hooks.changed(this);
    return true;
  }

  /** Stops the attempt (or the sign-in) that runs; false when none does. */
  cancel(): boolean {
    const signingIn = this.connector.signIn?.cancel() ?? false;
    if (!this.attempt) return signingIn;
    this.attempt.cancelled = true;
    void this.attempt.client.close().catch(() => {});
    return true;
  }

  /** The client of the connection tells that it ended. */
  ended(client: McpClient): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.tools = [];
    this.state = 'failed';
    this.error = 'The connection ended';
    this.hooks.changed(this);
    // Then why, when the transport can say (told unless the link moved on meanwhile).
    void this.connector.explain?.().then((why) => {
      if (why === undefined || this.state !== 'failed' || this.error !== 'The connection ended')
        return;
      this.error = `The connection ended: ${why}`;
      this.hooks.changed(this);
    });
  }

  /** The new tool list of the connected client. */
  toolsChanged(client: McpClient, tools: Tool[]): void {
    if (client !== this.client) return;
    this.tools = tools;
    this.hooks.changed(this);
  }

  /** Closes the connection or the attempt. */
  async close(): Promise<void> {
    this.cancel();
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => {});
  }

  /**
   * What the page is told of it. `names`: every server's tools under one set of names (the name
   * a model would know each tool by, and look-alikes across servers).
   */
  summary(names: ServerToolNames): ServerSummary {
    return {
      id: this.id,
      target: this.target,
      name: this.name,
      state: this.state,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(this.signInUrl !== undefined ? { signInUrl: this.signInUrl } : {}),
      serverInfo: this.client?.serverInfo,
      protocolVersion: this.client?.protocolVersion,
      tasksExtension:
        this.client?.serverCapabilities?.extensions?.['io.modelcontextprotocol/tasks'] !==
        undefined,
      trustAnnotations: this.trustAnnotations,
      trustedInConfig: this.trustedInConfig,
      tools: this.tools.map((tool) => {
        const exposed = names.list().find((e) => e.server === this.name && e.tool === tool);
        return {
          ...pageTool(tool, this.trustAnnotations),
          exposedAs: exposed?.name,
          findings: exposed?.findings.map((f) => f.message) ?? [],
        };
      }),
    };
  }
}

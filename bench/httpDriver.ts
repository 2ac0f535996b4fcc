/**
 * @module An HTTP load driver for the benchmark: MCP sessions over a keep-alive `node:http` agent,
 * reading JSON or SSE responses. The same driver for every server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { cpuNs, memoryMiB } from './procStats.js';

/** A spawned HTTP server and its URL. */
export class HttpServerProcess {
  readonly child: ChildProcess;
  readonly url: Promise<string>;

  constructor(script: string, env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [script], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    this.url = new Promise((resolve) =>
      this.child.stdout?.once('data', (c: Buffer) => resolve(c.toString().trim())),
    );
  }

  /** CPU time the server process has used so far, in nanoseconds (Linux /proc). */
  cpuNs(): number {
    return cpuNs(this.pid);
  }

  /** Resident set size of the server process now, in MiB (Linux /proc). */
  rssMiB(): number {
    return memoryMiB(this.pid).rss;
  }

  private get pid(): number {
    if (this.child.pid === undefined) throw new Error('the server process did not start');
    return this.child.pid;
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGKILL');
    await exited;
  }
}

/** An HTTP response as the driver reads it. */
interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * POSTs `body`. A request sent on a kept-alive socket the server closed meanwhile (its keep-alive
 * timeout passed while the socket sat idle, which a loaded machine makes likely) fails with
 * ECONNRESET before the server saw it: it is sent again once, on a new socket, as Node's
 * documentation advises (http.ClientRequest.reusedSocket).
 */
async function post(
  url: URL,
  agent: Agent,
  headers: Record<string, string>,
  body: string,
): Promise<Response> {
  try {
    return await postOnce(url, agent, headers, body);
  } catch (error) {
    if ((error as { staleSocket?: boolean }).staleSocket !== true) throw error;
    return postOnce(url, agent, headers, body);
  }
}

function postOnce(
  url: URL,
  agent: Agent,
  headers: Record<string, string>,
  body: string,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && error.code === 'ECONNRESET';
      reject(stale ? Object.assign(error, { staleSocket: true }) : error);
    });
    req.end(body);
  });
}

/** The JSON-RPC message in a JSON or SSE body (the last data line for SSE). */
function messageOf(text: string): { id?: unknown; result?: unknown; error?: unknown } {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) return JSON.parse(trimmed) as { id?: unknown };
  const data = text
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l.length > 7)
    .pop();
  if (!data) throw new Error(`no message in ${text.slice(0, 200)}`);
  return JSON.parse(data.slice(6)) as { id?: unknown };
}

/** The protocol era a benchmark client speaks. */
export type BenchEra = '2025' | '2026';

/** What every 2026-07-28 request carries in `_meta` (there is no session to remember it). */
const META_2026 = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

/** The headers of a 2026-07-28 `tools/call` of `echo`. */
const HEADERS_2026: Record<string, string> = {
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

/**
 * One MCP client of the load driver: a 2025 session (`initialize`, then its session id on every
 * request), or a 2026-07-28 client (no session: every request carries its `_meta` and headers).
 */
export class BenchSession {
  private sessionId: string | undefined;
  private nextId = 1;

  constructor(
    private readonly url: URL,
    private readonly agent: Agent,
    private readonly era: BenchEra = '2025',
  ) {}

  private headers(): Record<string, string> {
    if (this.era === '2026') return HEADERS_2026;
    return this.sessionId
      ? { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': '2025-11-25' }
      : {};
  }

  /** 2025: initialize + notifications/initialized. 2026: nothing (requests stand alone). */
  async open(): Promise<void> {
    if (this.era === '2026') return;
    const init = await post(
      this.url,
      this.agent,
      {},
      JSON.stringify({
        jsonrpc: '2.0',
        id: this.nextId++,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'bench', version: '1' },
        },
      }),
    );
    if (init.status !== 200) throw new Error(`initialize: HTTP ${init.status} ${init.text}`);
    const sid = init.headers['mcp-session-id'];
    this.sessionId = typeof sid === 'string' ? sid : undefined;
    const ack = await post(
      this.url,
      this.agent,
      this.headers(),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    if (ack.status !== 202) throw new Error(`initialized: HTTP ${ack.status}`);
  }

  /** One tools/call of `echo`. */
  async call(): Promise<void> {
    const id = this.nextId++;
    const response = await post(
      this.url,
      this.agent,
      this.headers(),
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params:
          this.era === '2026'
            ? { name: 'echo', arguments: { message: 'hello' }, _meta: META_2026 }
            : { name: 'echo', arguments: { message: 'hello' } },
      }),
    );
    const message = messageOf(response.text);
    if (response.status !== 200 || message.id !== id || !message.result)
      throw new Error(`call: HTTP ${response.status} ${response.text.slice(0, 200)}`);
  }
}

/** A keep-alive agent for `clients` concurrent sessions. */
export function agentFor(clients: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
}

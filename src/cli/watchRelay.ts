/**
 * @module The stdio side of `toolwire serve --watch`: the supervisor stands between the client
 * and the server process, passing lines both ways, so a restart does not end the client's
 * connection. A new server process is initialized with the client's recorded `initialize` (and
 * its `notifications/initialized` and `logging/setLevel`), the answers to those replays are kept
 * from the client, requests the old process never answered get an error, and the client hears
 * `notifications/tools/list_changed` (when the server declared it) to list the new tools.
 * Messages arriving during a restart wait for the new process.
 */

type Json = Record<string, unknown>;

/** Where the relay writes: the client (stdout) and the current server process (its stdin). */
export interface RelayEnds {
  toClient(line: string): void;
  log(message: string): void;
}

const REPLAY_PREFIX = 'toolwire-watch-replay-';

function parse(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
}

const idKey = (id: unknown): string | undefined =>
  typeof id === 'string' || typeof id === 'number' ? JSON.stringify(id) : undefined;

/** Passes MCP lines between one client and a succession of server processes. */
export class StdioRelay {
  private toServer: ((line: string) => void) | undefined;
  private readonly waiting: string[] = [];
  /** Client requests sent to the current process and not answered yet, by id key. */
  private readonly unanswered = new Map<string, unknown>();
  private initializeLine: string | undefined;
  private initializeId: string | undefined;
  private initializedLine: string | undefined;
  private setLevelLine: string | undefined;
  private announcesListChanged = false;
  /** Replayed requests whose answers are for the relay only. */
  private readonly replays = new Set<string>();
  private replayCount = 0;
  /** No process runs and none is starting: requests are answered with an error at once. */
  private down = false;

  constructor(private readonly ends: RelayEnds) {}

  /** A line from the client. */
  fromClient(line: string): void {
    const message = parse(line);
    if (message) this.record(message, line);
    if (this.down) {
      const id = message && 'method' in message ? message['id'] : undefined;
      if (idKey(id) !== undefined)
        this.ends.toClient(
          this.failure(
            id,
            'The server is not running: it restarts when a watched file changes (serve --watch)',
          ),
        );
      return;
    }
    if (!this.toServer) {
      this.waiting.push(line);
      return;
    }
    this.forward(message, line);
  }

  /** A line from the current server process. */
  fromServer(line: string): void {
    const message = parse(line);
    const key = message && !('method' in message) ? idKey(message['id']) : undefined;
    if (key !== undefined) {
      if (this.replays.delete(key)) {
        if ('error' in message!)
          this.ends.log(`the restarted server refused a replayed request: ${line.slice(0, 200)}`);
        return;
      }
      this.unanswered.delete(key);
      if (key === this.initializeId) {
        const result = message!['result'] as { capabilities?: { tools?: Json } } | undefined;
        this.announcesListChanged = result?.capabilities?.tools?.['listChanged'] === true;
      }
    }
    this.ends.toClient(line);
  }

  /** The process went away: its unanswered requests fail, and new lines wait for the next. */
  serverGone(): void {
    this.toServer = undefined;
    this.replays.clear();
    for (const id of this.unanswered.values())
      this.ends.toClient(this.failure(id, 'The server restarted before answering (serve --watch)'));
    this.unanswered.clear();
  }

  /** The process ended by itself and no new one is starting yet. */
  serverDown(): void {
    this.down = true;
  }

  private failure(id: unknown, message: string): string {
    return JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } });
  }

  /** A new process is ready for lines: replay the session's set-up, then pass what waited. */
  serverStarted(write: (line: string) => void): void {
    this.down = false;
    const restarted = this.initializeLine !== undefined;
    if (restarted) {
      for (const line of [this.initializeLine, this.initializedLine, this.setLevelLine]) {
        if (line === undefined) continue;
        write(this.replay(line));
      }
    }
    this.toServer = write;
    for (const line of this.waiting.splice(0)) this.forward(parse(line), line);
    if (restarted && this.announcesListChanged)
      this.ends.toClient(
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
      );
  }

  private forward(message: Json | undefined, line: string): void {
    const key = message && 'method' in message ? idKey(message['id']) : undefined;
    if (key !== undefined) this.unanswered.set(key, message!['id']);
    this.toServer?.(line);
  }

  /** Remembers what a new process needs to continue the client's session. */
  private record(message: Json, line: string): void {
    switch (message['method']) {
      case 'initialize':
        this.initializeLine = line;
        this.initializeId = idKey(message['id']);
        return;
      case 'notifications/initialized':
        this.initializedLine = line;
        return;
      case 'logging/setLevel':
        this.setLevelLine = line;
        return;
      default:
        return;
    }
  }

  /** The line with a relay-owned id when it is a request, so its answer stays here. */
  private replay(line: string): string {
    const message = parse(line);
    if (!message || !('id' in message)) return line;
    const id = `${REPLAY_PREFIX}${++this.replayCount}`;
    this.replays.add(JSON.stringify(id));
    return JSON.stringify({ ...message, id });
  }
}

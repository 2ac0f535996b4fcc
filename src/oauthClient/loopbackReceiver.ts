/**
 * @module {@link LoopbackRedirectReceiver}: the redirect back from the authorization server,
 * received by a one-shot HTTP listener on 127.0.0.1 (RFC 8252 §7.3: a native application's
 * loopback redirect, `http://127.0.0.1:<port>/callback`, on a port the system picks). It answers
 * the first GET of its path that carries `code` or `error` with a short static page (no script,
 * a CSP that allows nothing, no value of the query echoed), hands that query to `wait()`, and
 * stops listening; everything else gets a 404.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalError } from '../jsonrpc/errors.js';
import type { RedirectParameters, RedirectReceiver } from './types.js';

/** Options of {@link LoopbackRedirectReceiver}. */
export interface LoopbackRedirectReceiverOptions {
  /** The port to listen on (default 0: one the system picks, as RFC 8252 recommends). */
  port?: number;
  /** The redirect URI's path (default `/callback`). */
  path?: string;
  /** How long `wait()` waits for the redirect, in milliseconds (default 5 minutes). */
  timeoutMs?: number;
  /**
   * Where the person goes back to, as the page after the redirect says it ("the terminal" by
   * default; "the toolwire console" for the console). Plain text.
   */
  returnTo?: string;
}

/** How long a user has to sign in and consent by default. */
export const DEFAULT_REDIRECT_TIMEOUT_MS: number = 5 * 60_000;

const HOST = '127.0.0.1';

/** Headers of every answer: nothing may run, load, frame, refer or be cached. */
const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  connection: 'close',
} as const;

/** Text for an HTML page: the few characters markup gives meaning to, escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p>${text}</p></body></html>
`;
}

function donePage(returnTo: string): string {
  return page(
    'Signed in',
    'toolwire received the authorization. You can close this window and return to ' +
      `${escapeHtml(returnTo)}.`,
  );
}
const NOT_FOUND_PAGE = page('Not found', 'Nothing here.');

/** The page for an `error` answer: its code is shown only when it is a plain OAuth error code. */
function errorPage(error: string, returnTo: string): string {
  const code = /^[\w.-]{1,64}$/.test(error) ? ` (${error})` : '';
  return page(
    'Not signed in',
    `The authorization server did not grant access${code}. Return to ${escapeHtml(returnTo)} ` +
      'for details.',
  );
}

type Outcome = { ok: true; query: RedirectParameters } | { ok: false; error: Error };

/** One authorization: a listener, its redirect URI, and how it ended. */
interface Round {
  server: Server | undefined;
  uri: string;
  outcome: Outcome | undefined;
  /** True once a `wait()` was told the outcome: the next `start()` begins a new round. */
  told: boolean;
  readonly waiters: Set<(outcome: Outcome) => void>;
}

/**
 * Receives one redirect per authorization on `http://127.0.0.1:<port>/callback`. `start()`
 * listens and says the redirect URI (the same until the redirect was handed to `wait()` or
 * `close()` was called; then it listens anew, for a later authorization such as a step-up).
 * `wait()` resolves with the query of the first GET of that path carrying `code` or `error` (one
 * that arrives before `wait()` is kept), or rejects with a `timeout`, `aborted` or `closed`
 * {@link LocalError}. The listener closes after the redirect, a timeout, an abort or `close()`.
 */
export class LoopbackRedirectReceiver implements RedirectReceiver {
  private readonly port: number;
  private readonly path: string;
  private readonly timeoutMs: number;
  private readonly returnTo: string;
  private round: Round | undefined;

  constructor(options: LoopbackRedirectReceiverOptions = {}) {
    this.port = options.port ?? 0;
    this.path = options.path ?? '/callback';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REDIRECT_TIMEOUT_MS;
    this.returnTo = options.returnTo ?? 'the terminal';
    if (!this.path.startsWith('/')) throw new TypeError('the redirect path must start with "/"');
  }

  async start(): Promise<string> {
    if (this.round && !this.round.told) return this.round.uri;
    const server = createServer();
    const round: Round = { server, uri: '', outcome: undefined, told: false, waiters: new Set() };
    server.on('request', (req: IncomingMessage, res: ServerResponse) =>
      this.answer(round, req, res),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(
          new LocalError(
            'transport',
            `cannot listen on ${HOST}:${this.port} for the authorization redirect: ${error.message}`,
            { cause: error },
          ),
        ),
      );
      server.listen(this.port, HOST, () => resolve());
    });
    round.uri = `http://${HOST}:${(server.address() as AddressInfo).port}${this.path}`;
    // A listener that fails later (e.g. out of file descriptors) ends the round, not the process.
    server.on('error', (error) =>
      finish(round, {
        ok: false,
        error: new LocalError('transport', `the redirect listener failed: ${error.message}`, {
          cause: error,
        }),
      }),
    );
    this.round = round;
    return round.uri;
  }

  wait(signal?: AbortSignal): Promise<RedirectParameters> {
    const round = this.round;
    if (!round || round.told)
      return Promise.reject(new LocalError('not-connected', 'start() the receiver before wait()'));
    return new Promise<RedirectParameters>((resolve, reject) => {
      const tell = (outcome: Outcome) => {
        round.told = true;
        if (outcome.ok) resolve(outcome.query);
        else reject(outcome.error);
      };
      if (round.outcome) return tell(round.outcome);
      const seconds = Math.round(this.timeoutMs / 1000);
      const timer = setTimeout(
        () =>
          finish(round, {
            ok: false,
            error: new LocalError(
              'timeout',
              `no answer from the authorization server within ${seconds} s (was the sign-in in the browser completed?)`,
            ),
          }),
        this.timeoutMs,
      );
      const onAbort = () =>
        finish(round, {
          ok: false,
          error: new LocalError('aborted', 'stopped waiting for the authorization redirect', {
            cause: signal?.reason,
          }),
        });
      const settle = (outcome: Outcome) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        round.waiters.delete(settle);
        tell(outcome);
      };
      round.waiters.add(settle);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async close(): Promise<void> {
    const round = this.round;
    this.round = undefined;
    if (!round) return;
    finish(round, {
      ok: false,
      error: new LocalError('closed', 'the redirect receiver was closed'),
    });
    await stopListening(round);
  }

  private answer(round: Round, req: IncomingMessage, res: ServerResponse): void {
    const query = round.outcome ? undefined : this.redirectQuery(round, req);
    if (!query) {
      res.writeHead(404, HEADERS).end(NOT_FOUND_PAGE);
      return;
    }
    const error = query.get('error');
    res
      .writeHead(200, HEADERS)
      .end(error === null ? donePage(this.returnTo) : errorPage(error, this.returnTo));
    finish(round, { ok: true, query });
  }

  /** The query of a redirect: a GET of the path, on the listener's own host, with an answer. */
  private redirectQuery(round: Round, req: IncomingMessage): URLSearchParams | undefined {
    // A page elsewhere that reaches 127.0.0.1 through DNS rebinding names another host.
    if (req.method !== 'GET' || `http://${req.headers.host}${this.path}` !== round.uri)
      return undefined;
    const target = req.url ?? '';
    if (!target.startsWith('/')) return undefined;
    let url: URL;
    try {
      url = new URL(target, round.uri);
    } catch {
      return undefined;
    }
    if (url.pathname !== this.path) return undefined;
    const query = url.searchParams;
    return query.has('code') || query.has('error') ? query : undefined;
  }
}

/** Records a round's one outcome, tells its waiters, and stops its listener. */
function finish(round: Round, outcome: Outcome): void {
  if (round.outcome) return;
  round.outcome = outcome;
  for (const waiter of [...round.waiters]) waiter(outcome);
  void stopListening(round);
}

function stopListening(round: Round): Promise<void> {
  const server = round.server;
  round.server = undefined;
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

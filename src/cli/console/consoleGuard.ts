/**
 * @module Who may talk to the console: the page that was opened with the URL it printed, and
 * nothing else. Browsers send cookies to every port of a host, so a cookie would reach any page
 * on another port of 127.0.0.1 the person visits; the console's credential is therefore a session
 * secret the page keeps in its own origin's storage (which pages of other origins, other ports
 * included, cannot read) and sends as a `Bearer` header, which a page of another origin cannot
 * make the browser send. The URL carries a one-time sign-in token in its fragment (never sent to
 * any server, not even this one); the page trades it for a session once, and the token is then
 * spent. Every state-changing request must come from the console's own page (its Origin, a
 * same-origin fetch, a JSON body), and answering a question needs a key only the event stream
 * that showed it was given. The Host must be the console's own address (DNS rebinding). Every
 * answer carries a strict Content-Security-Policy: scripts, styles and connections to the console
 * itself only.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';

/** Whether `host` listens on every address of the machine. */
export const isWildcard = (host: string): boolean =>
  host === '0.0.0.0' || host === '::' || host === '[::]';

/** The security headers of every answer. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; " +
    "media-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; " +
    "frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The most sessions one console keeps (each sign-in link makes one). */
const MAX_SESSIONS = 64;

/** Constant-time comparison of two secrets. */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const secret = (): string => randomBytes(32).toString('base64url');

/** What the guard decided about a request. */
export type GuardVerdict =
  /** The page and its assets: they hold nothing, anyone on the console's own address may load them. */
  | { kind: 'public' }
  /** A signed-in request of the console's page. */
  | { kind: 'allowed' }
  /** The sign-in itself (`POST /api/session`): the handler trades the token with {@link ConsoleGuard.signIn}. */
  | { kind: 'sign-in' }
  | { kind: 'refused'; status: 401 | 403 | 415; message: string };

/** The message of a request without a session. */
export const SIGN_IN_MESSAGE: string =
  'Open the URL toolwire console printed (its sign-in link works once; a signed-in page gives ' +
  'links for other browsers).';

/** The guard of one console. */
export class ConsoleGuard {
  /** The hosts (`host:port`) the console answers to. */
  private hosts = new Set<string>();
  private origins = new Set<string>();
  /** Sign-in tokens not yet spent. */
  private readonly tokens = new Set<string>();
  /** Sessions handed to pages, oldest first. */
  private readonly sessions = new Set<string>();
  /** The key of the answer keys given to event streams. */
  private readonly answerSecret = randomBytes(32);
  /** The event streams open now: only they may answer the questions they showed. */
  private readonly streams = new Set<string>();

  /** `token`: the first sign-in token (the one in the URL printed at start). */
  constructor(token: string) {
    this.tokens.add(token);
  }

  /** Another one-time sign-in token (a new link the person asked for on the terminal). */
  issue(): string {
    const token = secret();
    this.tokens.add(token);
    return token;
  }

  /**
   * Told where the console listens (after `listen`). On a wildcard address (`0.0.0.0`, `::`) it
   * answers to the machine's own addresses and names: a browser reaches it at one of those.
   */
  listening(host: string, port: number): void {
    const names = isWildcard(host)
      ? [
          ...Object.values(networkInterfaces()).flatMap((list) =>
            (list ?? []).map((i) => i.address.replace(/%.*$/, '')),
          ),
          'localhost',
          hostname(),
        ]
      : host === '127.0.0.1'
        ? ['127.0.0.1', 'localhost']
        : [host];
    this.hosts = new Set(
      names.map((n) => `${n.includes(':') ? `[${n}]` : n}:${port}`.toLowerCase()),
    );
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`));
  }

  /** Checks one request. */
  check(request: Request): GuardVerdict {
    const host = request.headers.get('host') ?? '';
    if (!this.hosts.has(host.toLowerCase()))
      return refused(403, 'This console answers to its own address only.');
    const origin = request.headers.get('origin');
    if (origin !== null && !this.origins.has(origin.toLowerCase()))
      return refused(403, 'Requests from other sites are refused.');
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith('/api/')) return { kind: 'public' };
    if (request.method === 'POST') {
      // What changes anything must come from the console's own page: browsers always send the
      // Origin of a fetch that posts, and a same-origin one says so (Fetch Metadata).
      if (origin === null) return refused(403, 'A request that changes anything needs an Origin.');
      const site = request.headers.get('sec-fetch-site');
      if (site !== null && site !== 'same-origin')
        return refused(403, 'Requests from other sites are refused.');
      // A form cannot post JSON, and a page of another origin cannot without a preflight.
      const type = request.headers.get('content-type') ?? '';
      if (!/^application\/json\s*(;|$)/i.test(type))
        return refused(415, 'The console takes JSON (Content-Type: application/json).');
      if (pathname === '/api/session') return { kind: 'sign-in' };
    }
    const auth = request.headers.get('authorization') ?? '';
    const offered = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (offered === '' || ![...this.sessions].some((s) => same(s, offered)))
      return refused(401, SIGN_IN_MESSAGE);
    return { kind: 'allowed' };
  }

  /** Spends a sign-in token: a new session, or none when the token is not one (or was used). */
  signIn(offered: string): string | undefined {
    const token = [...this.tokens].find((t) => same(t, offered));
    if (token === undefined) return undefined;
    this.tokens.delete(token);
    const session = secret();
    this.sessions.add(session);
    // The oldest sessions go first: a console is not signed into thousands of times.
    for (const old of this.sessions) {
      if (this.sessions.size <= MAX_SESSIONS) break;
      this.sessions.delete(old);
    }
    return session;
  }

  /** A new event stream: its id, and the call that ends it. */
  openStream(): { id: string; close: () => void } {
    const id = secret();
    this.streams.add(id);
    return { id, close: () => this.streams.delete(id) };
  }

  /** The key with which `stream` may answer question `question` (given only to that stream). */
  answerKey(stream: string, question: string): string {
    return createHmac('sha256', this.answerSecret)
      .update(`${stream}\n${question}`)
      .digest('base64url');
  }

  /** Whether an answer to `question` comes from an open event stream that was shown it. */
  mayAnswer(question: string, proof: { stream?: unknown; key?: unknown }): boolean {
    const { stream, key } = proof;
    if (typeof stream !== 'string' || typeof key !== 'string') return false;
    return this.streams.has(stream) && same(key, this.answerKey(stream, question));
  }
}

function refused(status: 401 | 403 | 415, message: string): GuardVerdict {
  return { kind: 'refused', status, message };
}

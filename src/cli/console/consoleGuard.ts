/**
 * @module Who may talk to the console: the browser that opened the URL printed with its one-time
 * token, and nothing else. The token in that URL is exchanged for an HttpOnly, SameSite=Strict
 * cookie (as notebook servers do), then every request must carry the cookie (or the token as a
 * Bearer header, for scripts). The cookie holds a session secret of its own, never the token, and
 * is named after the console's port: browsers do not scope cookies by port, so two consoles (or
 * a restarted one) would otherwise overwrite each other's, and every local server the browser
 * visits would be sent the token. The Host must be the console's own address (DNS rebinding) and an
 * Origin, when sent, its own origin (cross-site requests). Every answer carries a strict
 * Content-Security-Policy: scripts, styles and connections to the console itself only.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';

/** Whether `host` listens on every address of the machine. */
export const isWildcard = (host: string): boolean =>
  host === '0.0.0.0' || host === '::' || host === '[::]';

/** The name of the session cookie of the console on `port`. */
export const cookieName = (port: number): string => `toolwire_console_${port}`;

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

/** Constant-time comparison of two tokens. */
function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of the cookie `name` a request carries. */
function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** What the guard decided about a request. */
export type GuardVerdict =
  | { kind: 'allowed' }
  | { kind: 'exchange'; location: string; cookie: string }
  | { kind: 'refused'; status: 401 | 403; message: string };

/** The guard of one console. */
export class ConsoleGuard {
  /** The hosts (`host:port`) the console answers to. */
  private hosts = new Set<string>();
  private origins = new Set<string>();
  private cookie = cookieName(0);
  /** What the cookie holds: the browser's session, apart from the token. */
  private readonly session = randomBytes(32).toString('base64url');

  constructor(private readonly token: string) {}

  /**
   * Told where the console listens (after `listen`). On a wildcard address (`0.0.0.0`, `::`) it
   * answers to the machine's own addresses and names: a browser reaches it at one of those.
   */
  listening(host: string, port: number): void {
    this.cookie = cookieName(port);
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
      return {
        kind: 'refused',
        status: 403,
        message: 'This console answers to its own address only.',
      };
    const origin = request.headers.get('origin');
    if (origin !== null && !this.origins.has(origin.toLowerCase()))
      return { kind: 'refused', status: 403, message: 'Requests from other sites are refused.' };
    const url = new URL(request.url);
    const offered = url.searchParams.get('token');
    if (offered !== null && request.method === 'GET' && url.pathname === '/') {
      if (!sameToken(offered, this.token))
        return { kind: 'refused', status: 401, message: 'This access token is not valid.' };
      return {
        kind: 'exchange',
        location: '/',
        cookie: `${this.cookie}=${this.session}; HttpOnly; SameSite=Strict; Path=/`,
      };
    }
    const auth = request.headers.get('authorization');
    const allowed = auth?.startsWith('Bearer ')
      ? sameToken(auth.slice(7), this.token)
      : sameToken(cookieOf(request, this.cookie) ?? '', this.session);
    if (!allowed)
      return {
        kind: 'refused',
        status: 401,
        message: 'Open the URL toolwire console printed (it carries the access token).',
      };
    return { kind: 'allowed' };
  }
}

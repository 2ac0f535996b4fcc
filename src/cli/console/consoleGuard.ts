/**
 * @module Who may talk to the console: the browser that opened the URL printed with its one-time
 * token, and nothing else. The token in that URL is exchanged for an HttpOnly, SameSite=Strict
 * cookie (as notebook servers do), then every request must carry the cookie (or the token as a
 * Bearer header, for scripts). The Host must be the console's own address (DNS rebinding) and an
 * Origin, when sent, its own origin (cross-site requests). Every answer carries a strict
 * Content-Security-Policy: scripts, styles and connections to the console itself only.
 */
import { timingSafeEqual } from 'node:crypto';

/** The cookie the token is kept in. */
export const COOKIE = 'toolwire_console';

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

/** The token a request presents: its cookie, or a Bearer header. */
function presented(request: Request): string | undefined {
  const auth = request.headers.get('authorization');
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=');
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

  constructor(private readonly token: string) {}

  /** Told where the console listens (after `listen`). */
  listening(host: string, port: number): void {
    const names = host === '127.0.0.1' ? ['127.0.0.1', 'localhost'] : [host];
    this.hosts = new Set(names.map((n) => `${n.includes(':') ? `[${n}]` : n}:${port}`));
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
        cookie: `${COOKIE}=${this.token}; HttpOnly; SameSite=Strict; Path=/`,
      };
    }
    const token = presented(request);
    if (token === undefined || !sameToken(token, this.token))
      return {
        kind: 'refused',
        status: 401,
        message: 'Open the URL toolwire console printed (it carries the access token).',
      };
    return { kind: 'allowed' };
  }
}

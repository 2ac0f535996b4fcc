import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConsoleGuard } from './consoleGuard.js';

const TOKEN = 't'.repeat(43);
/** The guard's verdict on a request for the page, sent to `host`. */
const verdict = (guard: ConsoleGuard, host: string) =>
  guard.check(new Request('http://console/', { headers: { host } })).kind;

describe('the hosts a console answers to (found in review)', () => {
  it('on a wildcard address: the machine its own addresses and names, nothing else', () => {
    for (const wildcard of ['0.0.0.0', '::']) {
      const guard = new ConsoleGuard(TOKEN);
      guard.listening(wildcard, 8123);
      expect(verdict(guard, '127.0.0.1:8123')).toBe('public');
      expect(verdict(guard, 'localhost:8123')).toBe('public');
      expect(verdict(guard, `${hostname()}:8123`)).toBe('public');
      expect(verdict(guard, '0.0.0.0:8123')).toBe('refused');
      expect(verdict(guard, 'evil.example:8123')).toBe('refused');
      expect(verdict(guard, '127.0.0.1:8124')).toBe('refused');
    }
  });

  it('a host name given in capitals, as browsers send it: in small letters', () => {
    const guard = new ConsoleGuard(TOKEN);
    guard.listening('MyBox', 8123);
    expect(verdict(guard, 'mybox:8123')).toBe('public');
    expect(verdict(guard, 'MYBOX:8123')).toBe('public');
  });
});

describe('the console session (issue 19)', () => {
  const ORIGIN = 'http://127.0.0.1:8123';
  const guarded = () => {
    const guard = new ConsoleGuard(TOKEN);
    guard.listening('127.0.0.1', 8123);
    return guard;
  };
  const api = (
    guard: ConsoleGuard,
    path: string,
    init: { method?: string; headers?: Record<string, string> } = {},
  ) =>
    guard.check(
      new Request(`${ORIGIN}${path}`, {
        method: init.method ?? 'GET',
        headers: { host: '127.0.0.1:8123', ...init.headers },
      }),
    );

  it('spends a sign-in token once; a new one can be issued', () => {
    const guard = guarded();
    const session = guard.signIn(TOKEN);
    expect(session).toMatch(/^[\w-]{43}$/);
    expect(session).not.toBe(TOKEN);
    expect(guard.signIn(TOKEN)).toBeUndefined();
    const next = guard.issue();
    expect(guard.signIn(next)).toMatch(/^[\w-]{43}$/);
    expect(guard.signIn(next)).toBeUndefined();
    expect(guard.signIn('')).toBeUndefined();
  });

  it('takes a session as a Bearer header only, never the token or a cookie', () => {
    const guard = guarded();
    const session = guard.signIn(TOKEN)!;
    expect(api(guard, '/api/state', { headers: { authorization: `Bearer ${session}` } }).kind).toBe(
      'allowed',
    );
    expect(api(guard, '/api/state', { headers: { authorization: `Bearer ${TOKEN}` } })).toEqual(
      expect.objectContaining({ kind: 'refused', status: 401 }),
    );
    expect(api(guard, '/api/state', { headers: { cookie: `s=${session}` } }).kind).toBe('refused');
  });

  it('takes a change only from its own page: Origin, same-origin fetch, JSON', () => {
    const guard = guarded();
    const auth = { authorization: `Bearer ${guard.signIn(TOKEN)!}` };
    const post = (headers: Record<string, string>) =>
      api(guard, '/api/calls/c1/cancel', { method: 'POST', headers: { ...auth, ...headers } });
    const json = { 'content-type': 'application/json' };
    expect(post({ ...json, origin: ORIGIN }).kind).toBe('allowed');
    expect(post({ ...json, origin: ORIGIN, 'sec-fetch-site': 'same-origin' }).kind).toBe('allowed');
    expect(post(json)).toMatchObject({ status: 403 });
    expect(post({ ...json, origin: 'http://127.0.0.1:9999' })).toMatchObject({ status: 403 });
    expect(post({ ...json, origin: ORIGIN, 'sec-fetch-site': 'same-site' })).toMatchObject({
      status: 403,
    });
    expect(post({ 'content-type': 'text/plain', origin: ORIGIN })).toMatchObject({ status: 415 });
  });

  it('gives each event stream its own answer keys, valid while it is open', () => {
    const guard = guarded();
    const a = guard.openStream();
    const b = guard.openStream();
    const key = guard.answerKey(a.id, 'q1');
    expect(guard.mayAnswer('q1', { stream: a.id, key })).toBe(true);
    expect(guard.mayAnswer('q2', { stream: a.id, key })).toBe(false);
    expect(guard.mayAnswer('q1', { stream: b.id, key })).toBe(false);
    expect(guard.mayAnswer('q1', {})).toBe(false);
    a.close();
    expect(guard.mayAnswer('q1', { stream: a.id, key })).toBe(false);
  });
});

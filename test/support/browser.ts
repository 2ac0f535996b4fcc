/**
 * @module A real browser for the console's tests: Debian's `chromium`, installed with apt-get
 * when missing (the tests fail loudly when it cannot be), driven by `playwright-core` (which
 * downloads no browser). Started headless in a new empty profile (playwright's), with Chromium's
 * background networking off: this machine's network is closed, and the page must need nothing
 * but the console.
 *
 * One browser per test worker, shared by the files that run there one after another (they share
 * their worker's modules), since a launch costs about 2 s of CPU. Each file opens its pages in
 * new contexts (`browser.newPage()` makes one), which share no cookie or storage, and closes them
 * when it ends (`closeContexts`). The browser ends with the worker: playwright kills the browsers
 * it launched when the process exits, and Chromium quits when its pipe to a killed process closes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** Installs Debian's chromium when it is missing; throws when it cannot. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', timeout: 300_000 });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      timeout: 600_000,
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    throw new Error(`Debian's chromium could not be installed (apt-get): ${String(error)}`);
  }
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

let shared: Promise<Browser> | undefined;

/**
 * This worker's headless Chromium, launched on first use (again if it went away). Not to be
 * closed by a test file: close the contexts and pages it opened instead.
 */
export async function sharedBrowser(): Promise<Browser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  shared = launchBrowser();
  return shared;
}

/**
 * Closes the contexts, and so the pages, a test file opened in the shared browser (in its
 * `afterAll`; a worker runs one file at a time).
 */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
}

/** Launches headless Chromium. */
function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

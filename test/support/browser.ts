/**
 * @module A real browser for the console's tests: Debian's `chromium`, installed with apt-get
 * when missing (the tests fail loudly when it cannot be), driven by `playwright-core` (which
 * downloads no browser). Started headless in a new empty profile (playwright's), with Chromium's background
 * networking off: this machine's network is closed, and the page must need nothing but the
 * console.
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

/** Launches headless Chromium. */
export async function launchBrowser(): Promise<Browser> {
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

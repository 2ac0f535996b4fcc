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
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * The Chromium features the tests' browser runs without. Chromium keeps the last
 * `--disable-features` it is given, so this list repeats the one playwright-core passes before it
 * (1.65: `chromiumSwitches` in its core bundle), and adds the omnibox popups: Chromium prerenders
 * them as two WebUI pages ("top chrome" renderers) for every window, that is for every page a
 * test opens, which was half of the browser's CPU in the console tests (40 -> 22 CPU-s for
 * consoleBrowser and issue-20-console-confirmation together). consoleBrowser.test.ts checks that
 * the list still holds every feature Playwright turns off, and that no omnibox popup is rendered.
 */
export const DISABLED_FEATURES: readonly string[] = [
  // playwright-core's list.
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  // The omnibox popups, nobody's to see in a headless browser.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];

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
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
}

/**
 * The `--disable-features` switches of the Chromium this process launched (read from /proc), each
 * as its list of features, in the order given: Playwright's own, then {@link DISABLED_FEATURES}.
 */
export function disabledFeatureSwitches(): string[][] {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      if (/^PPid:\s*(\d+)$/m.exec(status)?.[1] !== String(process.pid)) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!args.includes('--remote-debugging-pipe')) continue;
      return args
        .filter((arg) => arg.startsWith('--disable-features='))
        .map((arg) => arg.slice('--disable-features='.length).split(','));
    } catch {
      // The process ended meanwhile.
    }
  }
  throw new Error('no Chromium launched by this process');
}

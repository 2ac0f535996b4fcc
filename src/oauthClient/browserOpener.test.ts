// openInBrowser: only https (or allowed loopback http) URLs, always printed, opened with the
// platform's opener started without a shell.
import type { SpawnOptions } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LocalError } from '../jsonrpc/errors.js';
import {
  authorizationUrlProblem,
  browserOpener,
  openInBrowser,
  type OpenInBrowserOptions,
} from './browserOpener.js';

interface Spawned {
  command: string;
  args: readonly string[];
  options: SpawnOptions;
  unrefed: boolean;
  errorListeners: number;
}

/** A stand-in for child_process.spawn that records what it was asked to start. */
function recorder(behaviour: 'ok' | 'throws' | 'emits-error' = 'ok') {
  const spawned: Spawned[] = [];
  const spawn: NonNullable<OpenInBrowserOptions['spawn']> = (command, args, options) => {
    if (behaviour === 'throws') throw new Error('spawn EACCES');
    const entry: Spawned = { command, args, options, unrefed: false, errorListeners: 0 };
    spawned.push(entry);
    return {
      on(_event, listener) {
        entry.errorListeners++;
        if (behaviour === 'emits-error') listener(new Error('spawn xdg-open ENOENT'));
        return this;
      },
      unref() {
        entry.unrefed = true;
      },
    };
  };
  let printed = '';
  const output = { write: (text: string) => (printed += text) };
  return { spawned, spawn, output, printed: () => printed };
}

const DISPLAY = { DISPLAY: ':0' };

describe('the URLs opened', () => {
  it.each([
    ['javascript:alert(1)', 'scheme javascript:'],
    ['file:///etc/passwd', 'scheme file:'],
    ['data:text/html,<script>alert(1)</script>', 'scheme data:'],
    ['vbscript:msgbox', 'scheme vbscript:'],
    ['http://as.example/authorize', 'loopback only'],
    ['http://10.0.0.1/authorize', 'loopback only'],
    ['https://as.example@evil.example/authorize', 'user name or password'],
    ['https://as.example/authorize?x=1 2', 'whitespace'],
    ['https://as.example/\u202eauthorize', 'invisible'],
    ['/authorize', 'not an absolute URL'],
  ])('%s is refused (%s), printed nowhere, opened by nothing', (url, why) => {
    const r = recorder();
    let error: unknown;
    try {
      openInBrowser(url, {
        spawn: r.spawn,
        output: r.output,
        env: DISPLAY,
        allowLoopbackHttp: true,
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('denied');
    expect((error as LocalError).message).toContain(why);
    expect(r.spawned).toEqual([]);
    expect(r.printed()).toBe('');
  });

  it('http on loopback only when allowed', () => {
    for (const url of ['http://127.0.0.1:8080/auth', 'http://localhost/auth', 'http://[::1]/a']) {
      expect(authorizationUrlProblem(url)).toContain('only when loopback http is allowed');
      expect(authorizationUrlProblem(url, true)).toBeUndefined();
    }
    expect(authorizationUrlProblem('https://as.example/authorize?state=x')).toBeUndefined();
    expect(authorizationUrlProblem(new URL('https://as.example/'))).toBeUndefined();
  });
});

describe('opening', () => {
  it.each([
    ['linux', 'xdg-open', []],
    ['freebsd', 'xdg-open', []],
    ['darwin', 'open', []],
    ['win32', 'rundll32', ['url.dll,FileProtocolHandler']],
  ])('on %s: %s, without a shell, detached, output ignored', (platform, command, before) => {
    const r = recorder();
    const url = "https://as.example/authorize?a=1&b=$(touch${IFS}x)&c=`id`;d='e'|f";
    openInBrowser(url, { spawn: r.spawn, output: r.output, env: DISPLAY, platform });
    const href = new URL(url).href;
    expect(r.spawned).toHaveLength(1);
    const [spawned] = r.spawned;
    expect(spawned?.command).toBe(command);
    expect(spawned?.args).toEqual([...before, href]);
    expect(spawned?.options.shell).toBe(false);
    expect(spawned?.options.detached).toBe(true);
    expect(spawned?.options.stdio).toBe('ignore');
    expect(spawned?.unrefed).toBe(true);
    expect(spawned?.errorListeners).toBe(1);
    expect(r.printed()).toBe(`To authorize, open this URL in a browser:\n\n  ${href}\n\n`);
  });

  it('prints the URL without opening it with browser: false, or on Linux without a display', () => {
    const r = recorder();
    const url = 'https://as.example/authorize';
    openInBrowser(url, { spawn: r.spawn, output: r.output, env: DISPLAY, browser: false });
    openInBrowser(url, { spawn: r.spawn, output: r.output, env: {}, platform: 'linux' });
    expect(r.spawned).toEqual([]);
    expect(r.printed().match(/https:\/\/as\.example\/authorize/g)).toHaveLength(2);
    openInBrowser(url, { spawn: r.spawn, output: r.output, env: { WAYLAND_DISPLAY: 'w' } });
    expect(r.spawned).toHaveLength(1);
  });

  it('no opener installed, or one that cannot start: the printed URL is the way', () => {
    for (const behaviour of ['throws', 'emits-error'] as const) {
      const r = recorder(behaviour);
      const opener = browserOpener({ spawn: r.spawn, output: r.output, env: DISPLAY });
      expect(() => opener(new URL('https://as.example/a'))).not.toThrow();
      expect(r.printed()).toContain('https://as.example/a');
    }
  });

  it("the real opener: a missing program is no crash (spawn's error is handled)", async () => {
    let printed = '';
    openInBrowser('https://as.example/authorize', {
      output: { write: (t: string) => (printed += t) },
      env: { ...DISPLAY, PATH: '/nonexistent' },
      platform: 'linux',
    });
    // The ENOENT of the spawn arrives on a later turn: an unhandled one would fail the test run.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(printed).toContain('https://as.example/authorize');
  });
});

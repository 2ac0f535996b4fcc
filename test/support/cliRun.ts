/**
 * @module Running the built `toolwire` program for the CLI tests (issue 8): synchronously with a
 * time limit, or as a child process to signal, plus the fixtures those tests serve.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { CLI, ROOT } from './paths.js';
import { freePort } from './redis.js';

export const CLI_SERVER = `${ROOT}build/test/fixtures/cliServer.js`;
export const HOSTILE_SERVER = `${ROOT}build/test/fixtures/hostileServer.js`;
export const TS_SERVER = `${ROOT}test/fixtures/tsServer.ts`;

/** What a finished run printed, and its exit status. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `toolwire ...args` to its end (20 s at most). */
export function toolwire(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `toolwire ...args` as a child process (for signals and timing). */
export function startToolwire(
  args: readonly string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams & { output: () => CliRun; exited: Promise<CliRun> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const output = (): CliRun => ({ code: child.exitCode, stdout, stderr });
  const exited = new Promise<CliRun>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return Object.assign(child, { output, exited });
}

/**
 * Starts `toolwire serve <module> --http 0 ...extra` and resolves with its /mcp URL once it
 * listens; fails loudly if it exits first.
 */
export async function serveHttp(
  module: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ReturnType<typeof startToolwire> }> {
  const child = startToolwire(['serve', module, '--http', '0', ...extra], env);
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(child.output().stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('close', () => reject(new Error(`serve exited: ${child.output().stderr}`)));
  });
  return { url, child };
}

/**
 * Starts `toolwire serve <fixture> --http <port>` requiring access tokens of `auth` for its /mcp
 * URL (audience the URL, scope `mcp:tools`); resolves with the URL and the child once it listens,
 * and fails loudly if it exits first.
 */
export async function serveProtected(
  auth: { jwksUri: string; issuer: string },
  fixture = CLI_SERVER,
): Promise<{ url: string; child: ReturnType<typeof startToolwire> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const child = startToolwire([
    ...['serve', fixture, '--http', String(port)],
    ...['--auth-jwks', auth.jwksUri, '--auth-issuer', auth.issuer, '--auth-audience', url],
    ...['--auth-scope', 'mcp:tools', '--auth-allow-loopback-http'],
  ]);
  await until(
    () => child.output().stderr.includes(url) || child.exitCode !== null,
    15_000,
    'serve to listen',
  );
  if (child.exitCode !== null) throw new Error(`serve exited: ${child.output().stderr}`);
  return { url, child };
}

/**
 * Starts `toolwire console ...args` and resolves with the URL it prints (token included) once it
 * listens; fails loudly if it exits first. `env`: e.g. an XDG_CONFIG_HOME of the test's own.
 */
export async function startConsole(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{
  url: string;
  child: ReturnType<typeof startToolwire>;
  /** A sign-in link not used yet: the first one printed, then one more per call (a line on stdin). */
  link: () => Promise<string>;
}> {
  const child = startToolwire(['console', ...args], env);
  const printed = (): string[] =>
    [...child.output().stdout.matchAll(/open (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/g)].map(
      (m) => m[1]!,
    );
  const nth = (n: number) =>
    new Promise<string>((resolve, reject) => {
      const look = (): void => {
        const found = printed()[n];
        if (found === undefined) return;
        child.stdout.off('data', look);
        resolve(found);
      };
      child.stdout.on('data', look);
      child.once('close', (code) =>
        reject(new Error(`console exited ${code}: ${child.output().stderr}`)),
      );
      look();
    });
  const url = await nth(0);
  let used = 0;
  const link = async (): Promise<string> => {
    if (used > 0) child.stdin.write('\n');
    return nth(used++);
  };
  return { url, child, link };
}

/**
 * Signs in to a console as its page does: trades the one-time token of `url` (a printed link) for
 * a session. Returns the console's origin and the headers of a signed-in request of its page.
 */
export async function consoleSignIn(
  url: string,
): Promise<{ base: string; session: string; headers: Record<string, string> }> {
  const link = new URL(url);
  const token = new URLSearchParams(link.hash.slice(1)).get('token') ?? '';
  const response = await fetch(`${link.origin}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: link.origin },
    body: JSON.stringify({ token }),
  });
  const { session } = (await response.json()) as { session?: string };
  if (response.status !== 200 || typeof session !== 'string')
    throw new Error(`console sign-in failed: ${response.status}`);
  return {
    base: link.origin,
    session,
    headers: { authorization: `Bearer ${session}`, origin: link.origin },
  };
}

/** Waits until `check` is true, polling every 25 ms, for at most `ms`. */
export async function until(
  check: () => boolean,
  ms = 10_000,
  what = 'a condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Serves `module` over HTTP for the tests of the enclosing `describe` (started before them,
 * stopped after them); returns a getter of its /mcp URL.
 */
export function useHttpServer(module: string): () => string {
  let served: Awaited<ReturnType<typeof serveHttp>> | undefined;
  beforeAll(async () => {
    served = await serveHttp(module);
  });
  afterAll(async () => {
    served?.child.kill('SIGTERM');
    await served?.child.exited;
  });
  return () => {
    if (!served) throw new Error('the HTTP server is not running');
    return served.url;
  };
}

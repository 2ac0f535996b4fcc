/**
 * @module Module loading hooks for a server run by `toolwire serve --watch`: every local file the
 * server loads (not under node_modules) is posted to the main thread, which tells the supervisor
 * to watch it. Registered with `module.register` (Node 20.6 and later); runs off the main thread.
 */
import type { MessagePort } from 'node:worker_threads';

let port: MessagePort | undefined;

/** Receives the port to post file URLs on. */
export function initialize(data: { port: MessagePort }): void {
  port = data.port;
}

/** Posts the URL before loading, so a file that fails to load is watched too. */
export async function load(
  url: string,
  context: unknown,
  nextLoad: (url: string, context: unknown) => Promise<unknown>,
): Promise<unknown> {
  if (url.startsWith('file:') && !url.includes('/node_modules/')) port?.postMessage(url);
  return nextLoad(url, context);
}

/**
 * @module `toolwire logout <url>`: forgets what `login` stored for a server (its tokens from every
 * authorization server, and which one it used), and says what was removed. The URL given is
 * matched to the stored resource URIs the way URLs compare (scheme and host in any case, a
 * default port, a trailing slash), so `https://MCP.example:443/mcp/` logs out of
 * `https://mcp.example/mcp`. Nothing is sent to the network.
 */
import type { Writable } from 'node:stream';
import { FileOAuthStore } from '../node.js';
import type { LogoutCommand } from './loginArgs.js';
import { EXIT } from './failure.js';
import { terminalJson, terminalLine } from './terminalText.js';

/** Where `logout` writes. */
export interface LogoutIo {
  stdout: Pick<Writable, 'write'>;
}

/** A URL as compared for logout: parsed, without fragment, without a trailing slash. */
function comparable(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

/** One resource logged out of. */
interface LoggedOut {
  resource: string;
  issuers: readonly string[];
}

function describe(entry: LoggedOut): string {
  const resource = terminalLine(entry.resource);
  if (entry.issuers.length === 0)
    return `Logged out of ${resource} (it had no tokens; its authorization server is forgotten).`;
  const issuers = entry.issuers.map(terminalLine).join(', ');
  return `Logged out of ${resource}: removed the tokens issued by ${issuers}.`;
}

/** `toolwire logout` */
export async function logoutCommand(
  command: LogoutCommand,
  io: LogoutIo,
  store: FileOAuthStore = new FileOAuthStore(),
): Promise<number> {
  const wanted = comparable(command.url);
  const matches = (await store.resources()).filter((r) => comparable(r) === wanted);
  const loggedOut: LoggedOut[] = [];
  for (const resource of matches)
    loggedOut.push({ resource, ...(await store.forgetResource(resource)) });
  if (command.jsonOutput)
    io.stdout.write(terminalJson({ url: command.url, loggedOut, file: store.path }, 2) + '\n');
  else if (loggedOut.length === 0)
    io.stdout.write(
      `Not logged in to ${terminalLine(command.url)}: nothing stored for it in ${store.path}.\n`,
    );
  else io.stdout.write(loggedOut.map(describe).join('\n') + '\n');
  return EXIT.ok;
}

/**
 * @module A server as the person knows it: a short form of what they configured (the URL's host
 * and path; the command with its program and files by their names), the whole identity on hover,
 * and the name the server gives itself only as a label ("calls itself …").
 */
import { visible } from './visibleText.js';

/** The words of an identity `-- "/usr/bin/node" "/home/me/x/server.js" "--flag"`. */
function wordsOf(identity: string): string[] {
  return [...identity.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => {
    try {
      return JSON.parse(`"${m[1] ?? ''}"`) as string;
    } catch {
      return m[1] ?? '';
    }
  });
}

/** The short form of a server's identity. */
export function shortTarget(identity: string): string {
  if (/^https?:\/\//i.test(identity)) {
    try {
      const url = new URL(identity);
      return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
    } catch {
      return identity;
    }
  }
  const words = wordsOf(identity);
  if (words.length === 0) return identity;
  return words
    .map((w) => (/^[/\\]|^[A-Za-z]:\\/.test(w) ? (w.split(/[/\\]/).pop() ?? w) : w))
    .join(' ');
}

/** The name and title a server gives itself. */
export interface SelfDeclared {
  name?: unknown;
  title?: unknown;
  version?: unknown;
}

/** The server as the person knows it, with what it calls itself as a label. */
export function ServerLabel(props: { target: string; self?: SelfDeclared | undefined }) {
  const { target, self } = props;
  const called =
    typeof self?.title === 'string' ? self.title : typeof self?.name === 'string' ? self.name : '';
  return (
    <span class="server-label">
      <span class="target" title={visible(target)}>
        {visible(shortTarget(target))}
      </span>
      {called !== '' ? (
        <span class="label"> (calls itself {visible(JSON.stringify(called))})</span>
      ) : null}
    </span>
  );
}

/**
 * @module The servers on the page, each with where it stands: connecting; waiting for the person
 * to sign in (a protected server: a link to its authorization server, opened in a new tab, and a
 * cancel button); failed, with the reason and a retry button; or connected, with the trust
 * toggle and its tools (a name also exposed by another server is marked, and names that look
 * like another or hide characters are flagged). A server is named by what the person configured;
 * the name it gives itself is only a label.
 */
import { AnotherLink } from './anotherLink.js';
import { post } from './api.js';
import { shortTarget } from './serverLabel.js';
import type { Server } from './types.js';
import { visible } from './visibleText.js';

/** An authorization URL the page links to: https, or http on this machine (development). */
function signInTarget(href: string): URL | undefined {
  try {
    const url = new URL(href);
    const loopback = /^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname);
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopback) ? url : undefined;
  } catch {
    return undefined;
  }
}

function SignIn({ server, href }: { server: Server; href: string }) {
  const url = signInTarget(href);
  return (
    <div class="sign-in" role="status">
      <div>This server asks you to sign in.</div>
      {url ? (
        <a class="button primary" href={url.href} target="_blank" rel="noopener noreferrer">
          Sign in at {visible(url.host)}
        </a>
      ) : (
        <div class="badge error">the authorization URL is not https: not linked</div>
      )}{' '}
      <button onClick={() => void post(`/api/servers/${server.id}/cancel`, {})}>Cancel</button>
    </div>
  );
}

function Status({ server }: { server: Server }) {
  if (server.signInUrl !== undefined) return <SignIn server={server} href={server.signInUrl} />;
  if (server.state === 'connecting') return <div class="badge running">connecting…</div>;
  if (server.state === 'failed')
    return (
      <div class="failed" role="status">
        <div class="badge error">not connected</div>{' '}
        <span class="note">{visible(server.error ?? '')}</span>{' '}
        <button onClick={() => void post(`/api/servers/${server.id}/connect`, {})}>Retry</button>
      </div>
    );
  return null;
}

/** Which revision, and so which era, a connected server speaks. */
function eraLine(version: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) return 'protocol: an unknown revision';
  return version >= '2026-07-28'
    ? `protocol ${version}: stateless requests, no session`
    : `protocol ${version}: a session (initialize)`;
}

/** The navigation: servers, their state and tools. */
export function ServerList(props: {
  servers: Server[];
  selected: { server: string; tool: string } | undefined;
  onSelect: (choice: { server: string; tool: string }) => void;
  onTrust: (server: string, trust: boolean) => void;
}) {
  const { servers, selected } = props;
  const names = new Map<string, number>();
  for (const s of servers) for (const t of s.tools) names.set(t.name, (names.get(t.name) ?? 0) + 1);
  return (
    <nav class="tools" aria-label="tools">
      <h1>toolwire console</h1>
      <AnotherLink />
      {servers.map((s) => (
        <div key={s.id} class="server" aria-label={`server ${s.target}`}>
          <h2 title={visible(s.target)}>{visible(shortTarget(s.target))}</h2>
          {s.serverInfo ? (
            <div class="note label">
              calls itself {visible(JSON.stringify(s.serverInfo.name))}
              {typeof s.serverInfo.version === 'string' ? ` ${visible(s.serverInfo.version)}` : ''}
            </div>
          ) : null}
          <Status server={s} />
          {s.state === 'connected' && s.protocolVersion !== undefined ? (
            <div class="note revision" title="the MCP revision spoken with this server">
              {eraLine(s.protocolVersion)}
            </div>
          ) : null}
          {s.state === 'connected' ? (
            <label class="trust">
              <input
                type="checkbox"
                checked={s.trustAnnotations}
                disabled={s.trustedInConfig === true}
                onChange={(e) => props.onTrust(s.id, (e.target as HTMLInputElement).checked)}
              />
              trust its annotations (read-only tools run without asking)
              {s.trustedInConfig === true ? ' (set in config.json)' : ' (kept for this server)'}
            </label>
          ) : null}
          <ul>
            {s.tools.map((t) => (
              <li key={t.name}>
                <button
                  class={selected?.server === s.id && selected.tool === t.name ? 'selected' : ''}
                  onClick={() => props.onSelect({ server: s.id, tool: t.name })}
                >
                  {visible(t.name)}
                </button>
                {(names.get(t.name) ?? 0) > 1 ? (
                  <span class="badge warn">also on another server</span>
                ) : null}
                {(t.findings ?? []).length > 0 ? (
                  <span class="badge warn" title={visible((t.findings ?? []).join('\n'))}>
                    {t.findings?.some((f) => f.includes('looks like'))
                      ? 'looks like another tool'
                      : 'hidden characters'}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

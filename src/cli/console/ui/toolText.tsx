/**
 * @module A tool's text as the page shows it: its description (lines that read like instructions
 * to a model flagged), its behaviour hints as badges (destructive in red), and what the person
 * should know of it (hidden characters, a name like another's) as warnings.
 */
import type { Tool } from './types.js';
import { instructionLike, visible } from './visibleText.js';

export function Description({ text }: { text: string }) {
  return (
    <div class="description">
      {text.split('\n').map((line, i) => (
        <div key={i} class={instructionLike(line) ? 'flagged' : ''}>
          {instructionLike(line) ? (
            <span class="badge warn">reads like an instruction to the model</span>
          ) : null}
          {visible(line)}
        </div>
      ))}
    </div>
  );
}

/** The behaviour hints, with the spec's defaults for those left out; destructive is a warning. */
function hints(tool: Tool): Array<{ text: string; danger?: boolean }> {
  const a = tool.annotations ?? {};
  return [
    a['readOnlyHint'] === true
      ? { text: 'read-only' }
      : a['destructiveHint'] === false
        ? { text: 'not destructive' }
        : { text: 'destructive', danger: true },
    { text: a['idempotentHint'] === true ? 'idempotent' : 'not idempotent' },
    { text: a['openWorldHint'] === false ? 'closed world' : 'open world' },
  ];
}

/** The hints as badges; `trusted`: the person trusts the server's annotations. */
export function Hints({ tool, trusted }: { tool: Tool; trusted: boolean }) {
  return (
    <span class="hints-list">
      hints ({trusted ? 'trusted' : 'untrusted'}):{' '}
      {hints(tool).map((h) => (
        <span key={h.text} class={`badge${h.danger ? ' error' : ''}`}>
          {h.text}
        </span>
      ))}
    </span>
  );
}

/** What the person should know of a tool's text, as warnings. */
export function Findings({ findings }: { findings: readonly string[] }) {
  if (findings.length === 0) return null;
  return (
    <ul class="findings">
      {findings.map((f, i) => (
        <li key={i} class="badge warn">
          {visible(f)}
        </li>
      ))}
    </ul>
  );
}

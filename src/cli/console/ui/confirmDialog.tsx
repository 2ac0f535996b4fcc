/**
 * @module The question before a call, as complete as the CLI's: which server (as the person knows
 * it, what it calls itself as a label), the tool's description and behaviour hints (destructive in
 * red), what to watch for (hidden characters, a look-alike name, a rename, a tool that now claims
 * to be read-only), the arguments, and what changed since the person allowed it always. The safe
 * answer has the focus: Enter answers with the focused button (Deny first, as the CLI's empty
 * answer), Escape denies.
 */
import { useRef } from 'preact/hooks';
import { answer } from './api.js';
import { useDialogKeys } from './dialogKeys.js';
import { ServerLabel } from './serverLabel.js';
import { Description, Findings, Hints } from './toolText.js';
import type { Confirmation } from './types.js';
import { visible } from './visibleText.js';

/** Why the person is asked, in words. */
function why(request: Confirmation['request']): string {
  if (request.reason === 'fewer-confirmations' || request.fewerConfirmations === true)
    return 'It now claims to be read-only (no confirmation needed), and did not before.';
  if (request.reason === 'definition-changed')
    return 'Its definition changed since you allowed it always.';
  return 'The server could use this tool to act on your behalf.';
}

export function ConfirmDialog(props: { waiting: Confirmation; trusted: boolean }) {
  const { waiting } = props;
  const { request } = waiting;
  const deny = useRef<HTMLButtonElement>(null);
  const decide = (decision: string) =>
    void answer(`/api/confirmations/${waiting.id}`, waiting, { decision });
  useDialogKeys(waiting.id, () => decide('deny'), deny);
  return (
    <div class="dialog" role="dialog" aria-modal="true" aria-label="confirm the call">
      <h2>Call {visible(request.tool.name)}?</h2>
      {request.target ? (
        <div class="note">
          on <ServerLabel target={request.target} self={request.server} />
        </div>
      ) : null}
      <div class="note">{why(request)}</div>
      {request.tool.description ? <Description text={request.tool.description} /> : null}
      <div class="hints">
        <Hints tool={request.tool} trusted={props.trusted} />
      </div>
      {request.renamedFrom ? (
        <div class="badge warn">
          renamed from {visible(request.renamedFrom.from)}? (
          {request.renamedFrom.resemblance === 'same' ? 'the same' : 'a similar'} definition was
          offered under that name)
        </div>
      ) : null}
      <Findings findings={request.findings ?? []} />
      <div>arguments</div>
      <pre class="json args">{visible(JSON.stringify(request.arguments, null, 2))}</pre>
      {request.previous ? (
        <div class="changed">
          <div>what changed</div>
          <pre class="json diff">
            {(request.diff ?? []).map((line, i) => (
              <div
                key={i}
                class={line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : ''}
              >
                {visible(line)}
              </div>
            ))}
          </pre>
        </div>
      ) : null}
      <div class="actions">
        <button onClick={() => decide('allow-once')}>Allow once</button>
        <button onClick={() => decide('allow-always')}>Always allow this definition</button>
        <button ref={deny} class="danger" onClick={() => decide('deny')}>
          Deny
        </button>
      </div>
    </div>
  );
}

/**
 * @module A server's request to the person, as a dialog: an elicitation (a form generated from
 * its requested schema, or in URL mode the URL as text, never a link) with Send, Decline and
 * Cancel; a sampling request (system prompt and messages) with the reply to send as the model's,
 * drafted by the configured model command when the person asks, or Reject.
 */
import { useState } from 'preact/hooks';
import { answer as answerOn, jsonOf } from './api.js';
import { useDialogKeys } from './dialogKeys.js';
import { SchemaForm, type Schema } from './schemaForm.js';
import type { Input, Json } from './types.js';
import { visible } from './visibleText.js';

/** A server's question: an elicitation (a form, or a URL) or a sampling request. */
export function InputDialog({ input, model }: { input: Input; model: string | undefined }) {
  const answer = (body: object) => void answerOn(`/api/inputs/${input.id}`, input, body);
  const [reply, setReply] = useState('');
  // The model command's draft fills the reply, the person's to read and change before sending
  // (the console tells the server a reply sent unchanged is the model's).
  const [drafting, setDrafting] = useState(false);
  const [problem, setProblem] = useState('');
  const askModel = async () => {
    setDrafting(true);
    setProblem('');
    try {
      const body = await jsonOf(await answerOn(`/api/inputs/${input.id}/draft`, input, {}));
      if (typeof body['text'] === 'string') {
        setReply(body['text']);
      } else setProblem(String(body['error'] ?? 'No draft came back'));
    } catch (error) {
      // The console is gone, or the network between.
      setProblem(
        `The console did not answer: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      setDrafting(false);
    }
  };
  // Escape rejects a sampling request and cancels an elicitation.
  useDialogKeys(input.id, () => answer(input.kind === 'sampling' ? {} : { action: 'cancel' }));
  const p = input.params;
  if (input.kind === 'sampling') {
    const messages = Array.isArray(p['messages']) ? (p['messages'] as Json[]) : [];
    return (
      <div
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-label="the server asks for a model's reply"
      >
        <h2>The server asks for a model&apos;s reply</h2>
        {typeof p['systemPrompt'] === 'string' ? (
          <pre class="text">system: {visible(p['systemPrompt'])}</pre>
        ) : null}
        {messages.map((m, i) => {
          const content = (m['content'] ?? {}) as Json;
          return (
            <pre key={i} class="text">
              {visible(String(m['role']))}:{' '}
              {visible(
                typeof content['text'] === 'string'
                  ? content['text']
                  : `[${String(content['type'])}]`,
              )}
            </pre>
          );
        })}
        {model !== undefined ? (
          <div class="actions">
            <button disabled={drafting} onClick={() => void askModel()}>
              Ask the model command for a draft
            </button>
            <code class="note model" title={model}>
              {visible(model)}
            </code>
            {drafting ? <span class="badge running">asking…</span> : null}
            {problem ? <span class="badge error">{visible(problem)}</span> : null}
          </div>
        ) : null}
        <label for="sampling-reply">The reply (sent as the model&apos;s; read it first)</label>
        <textarea
          id="sampling-reply"
          value={reply}
          onInput={(e) => setReply((e.target as HTMLTextAreaElement).value)}
        />
        <div class="actions">
          <button class="primary" onClick={() => answer({ text: reply })}>
            Send reply
          </button>
          <button class="danger" onClick={() => answer({})}>
            Reject
          </button>
        </div>
      </div>
    );
  }
  return (
    <div class="dialog" role="dialog" aria-modal="true" aria-label="the server asks you">
      <h2>The server asks</h2>
      <p>{visible(String(p['message'] ?? ''))}</p>
      {p['mode'] === 'url' ? (
        <div>
          <pre class="text">{visible(String(p['url'] ?? ''))}</pre>
          <div class="note">Open it yourself if you trust it; it is not a link here.</div>
          <div class="actions">
            <button class="primary" onClick={() => answer({ action: 'accept' })}>
              Done
            </button>
          </div>
        </div>
      ) : (
        <SchemaForm
          schema={(p['requestedSchema'] ?? {}) as Schema}
          submitLabel="Send"
          onSubmit={(content) => answer({ action: 'accept', content })}
        />
      )}
      <div class="actions">
        <button onClick={() => answer({ action: 'decline' })}>Decline</button>
        <button class="danger" onClick={() => answer({ action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </div>
  );
}

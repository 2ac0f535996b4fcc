/**
 * @module A sign-in link for another browser: the console's links work once, so a signed-in page
 * asks the console for a new one-time link and shows it to copy (never opened from here).
 */
import { useState } from 'preact/hooks';
import { jsonOf, post } from './api.js';
import { visible } from './visibleText.js';

export function AnotherLink() {
  const [link, setLink] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState('');
  const ask = async () => {
    setProblem('');
    const body: Record<string, unknown> = await post('/api/links', {})
      .then(jsonOf)
      .catch((error: unknown) => ({
        error: error instanceof Error ? error.message : String(error),
      }));
    if (typeof body['url'] === 'string') setLink(body['url']);
    else setProblem(String(body['error'] ?? 'No link came back'));
  };
  return (
    <div class="another-link">
      <button onClick={() => void ask()}>Link for another browser</button>
      {link ? (
        <label>
          works once:{' '}
          <input
            readOnly
            value={link}
            aria-label="sign-in link"
            onFocus={(e) => (e.target as HTMLInputElement).select()}
          />
        </label>
      ) : null}
      {problem ? <div class="badge error">{visible(problem)}</div> : null}
    </div>
  );
}

/**
 * @module The page's way to the console's API. Signing in: the link the console printed carries a
 * one-time token in its fragment; the page trades it for a session, kept in this origin's
 * `localStorage` (no page of another origin, another port of 127.0.0.1 included, can read it) and
 * sent as a `Bearer` header on every request (no cookie: browsers send cookies to every port).
 * The event stream is read with `fetch` (an `EventSource` cannot send the header); the id of the
 * stream and the key it was given for each question go with every answer, so a question is
 * answered only from a page that was shown it.
 */
import { createParser } from 'eventsource-parser';

const STORAGE_KEY = 'toolwire-console-session';

/** This page's session (in this origin's storage, so the tabs of one console share it). */
let session: string | undefined;
/** The event stream open now (its id goes with every answer). */
let stream: string | undefined;

function stored(): string | undefined {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return session;
  }
}

function store(value: string | undefined): void {
  session = value;
  try {
    if (value === undefined) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // storage off: this tab keeps its session in memory
  }
}

const headers = (): Record<string, string> =>
  session === undefined ? {} : { authorization: `Bearer ${session}` };

/**
 * Signs in: with the token of the link this page was opened with (taken out of the address bar
 * first, so it is neither kept in the history nor shown), else with the session kept earlier.
 * False when there is neither.
 */
export async function signIn(): Promise<boolean> {
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (token !== null) {
    history.replaceState(null, '', location.pathname);
    const response = await fetch('/api/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    if (response.ok) {
      const body = (await response.json()) as { session?: unknown };
      if (typeof body.session === 'string') {
        store(body.session);
        return true;
      }
    }
  }
  session = stored();
  return session !== undefined;
}

/** The page's one way to act: a JSON POST to the console's API, with the session. */
export const post = (path: string, body: unknown): Promise<Response> =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers() },
    body: JSON.stringify(body),
  });

/** Answers a question (a confirmation, a server's request) shown on this page's stream. */
export const answer = (path: string, question: { key?: string }, body: object): Promise<Response> =>
  post(path, { ...body, stream, key: question.key });

/** Why the event stream stopped for good. */
export type StreamEnd = 'signed-out';

/**
 * Listens to the console's events until `signal` aborts, reconnecting when the stream drops (the
 * stream begins with the whole state again); `onEnd` when the session is no longer valid.
 */
export function listen(
  onEvent: (data: string) => void,
  onEnd: (why: StreamEnd) => void,
  signal: AbortSignal,
): void {
  const parser = createParser({ onEvent: (message) => onEvent(message.data) });
  const decoder = new TextDecoder();
  let wait = 250;
  const once = async (): Promise<'again' | StreamEnd> => {
    const response = await fetch('/api/events', { headers: headers(), signal });
    if (response.status === 401) return 'signed-out';
    if (!response.ok || !response.body) return 'again';
    wait = 250;
    parser.reset();
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'again';
      parser.feed(decoder.decode(value, { stream: true }));
    }
  };
  void (async () => {
    while (!signal.aborted) {
      const outcome = await once().catch(() => 'again' as const);
      if (outcome === 'signed-out') {
        store(undefined);
        onEnd(outcome);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 5000);
    }
  })();
}

/** Notes the id of the stream the page listens to (from its `state` event). */
export function streamOpened(id: string): void {
  stream = id;
}

/**
 * A response's JSON object; for anything else (a 401 or 403 from the guard is plain text, a proxy
 * may answer HTML) an `error` saying what came back.
 */
export async function jsonOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      return body as Record<string, unknown>;
  } catch {
    // not JSON: said below
  }
  return { error: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}` };
}

/** @module The page's one way to act: a JSON POST to the console's API (same origin, cookie). */
export const post = (path: string, body: unknown): Promise<Response> =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

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

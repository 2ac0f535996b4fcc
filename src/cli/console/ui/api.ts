/** @module The page's one way to act: a JSON POST to the console's API (same origin, cookie). */
export const post = (path: string, body: unknown): Promise<Response> =>
  fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

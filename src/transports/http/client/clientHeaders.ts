/**
 * @module Request headers the HTTP client transports add: the caller's own (authorization...),
 * fixed or computed per request.
 */

/** Extra headers: fixed, or computed for every request (e.g. a fresh access token). */
export type HeadersSource =
  Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** The extra headers for one request. */
export async function resolveHeaders(
  source: HeadersSource | undefined,
): Promise<Record<string, string>> {
  if (source === undefined) return {};
  return typeof source === 'function' ? await source() : source;
}

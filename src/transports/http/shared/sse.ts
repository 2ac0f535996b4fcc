/**
 * @module Server-Sent Events framing (WHATWG HTML §9.2): one event as text. Data never contains a
 * raw newline here (JSON.stringify escapes them), so each event has exactly one `data:` line.
 */

/** One SSE event. */
export interface SseEvent {
  id?: string;
  event?: string;
  /** Reconnection delay the client must honour, in milliseconds. */
  retry?: number;
  /** Already serialised; must not contain a line break. */
  data: string;
}

/** The text of one event, ending with the blank line that dispatches it. */
export function formatSseEvent(event: SseEvent): string {
  let text = '';
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${Math.max(0, Math.floor(event.retry))}\n`;
  return `${text}data: ${event.data}\n\n`;
}

/** A block that only sets the client's reconnection delay (no id, no event dispatched). */
export function formatSseRetry(retryMs: number): string {
  return `retry: ${Math.max(0, Math.floor(retryMs))}\n\n`;
}

/** Headers of every SSE response. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Proxies such as nginx buffer responses unless told not to.
  'x-accel-buffering': 'no',
};

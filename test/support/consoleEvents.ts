/**
 * @module A console page's event stream, read by a test: opened with the page's session, its
 * events kept in order, waited for by predicate, and the stream's id (the `state` event's), which
 * a page sends with every answer.
 */
import { createParser } from 'eventsource-parser';

/** An open event stream of a console. */
export interface ConsoleEvents {
  /** The stream's id (answers carry it, with the key of the question). */
  readonly id: string;
  /** Every event so far, in order. */
  readonly seen: Array<Record<string, unknown>>;
  /** Resolves with the first event from index `from` on that matches; 10 s at most. */
  until(
    match: (event: Record<string, unknown>) => boolean,
    from?: number,
  ): Promise<Record<string, unknown>>;
  close(): void;
}

/** Opens the event stream of the console at `base` with a page's `headers`. */
export async function consoleEvents(
  base: string,
  headers: Record<string, string>,
): Promise<ConsoleEvents> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/events`, { headers, signal: controller.signal });
  if (response.status !== 200 || !response.body)
    throw new Error(`the event stream answered ${response.status}`);
  const seen: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (message) => {
      seen.push(JSON.parse(message.data) as Record<string, unknown>);
      for (const wake of waiters) wake();
    },
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  })();
  const until = (match: (event: Record<string, unknown>) => boolean, from = 0) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = (): boolean => {
        const found = seen.slice(from).find(match);
        if (found === undefined) return false;
        waiters.delete(wake);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const wake = (): void => void check();
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error(`not seen: ${JSON.stringify(seen.slice(from))}`));
      }, 10_000);
      waiters.add(wake);
      check();
    });
  const state = await until((e) => e['type'] === 'state');
  return { id: String(state['stream']), seen, until, close: () => controller.abort() };
}

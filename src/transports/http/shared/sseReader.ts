/**
 * @module Reading an SSE response body into events (parsing by eventsource-parser), with a cap on
 * one event's size.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** Callbacks of {@link readSse}. */
export interface SseHandlers {
  event(event: EventSourceMessage): void;
  /** The server announced a reconnection delay. */
  retry?(ms: number): void;
  /** An event exceeded the size cap and was dropped. */
  oversized?(): void;
}

/** Reads `body` to its end (or until cancelled), calling `handlers` for each event. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  handlers: SseHandlers,
  maxEventBytes: number,
): Promise<void> {
  const parser = createParser({
    onEvent: (event) => handlers.event(event),
    onRetry: (ms) => handlers.retry?.(ms),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') handlers.oversized?.();
    },
    maxBufferSize: maxEventBytes,
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}

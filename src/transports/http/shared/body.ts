/**
 * @module Reading a request body with a hard size limit: the limit holds whatever the client
 * claims (an honest, a missing, or a lying Content-Length, or chunked encoding), because bytes are
 * counted as they arrive and reading stops at the limit.
 */

/** Default maximum body size (RELIABILITY.md). */
export const DEFAULT_MAX_BODY_BYTES: number = 4 * 1024 * 1024;

/** The body as text, or why it was refused. */
export type BodyResult =
  { ok: true; text: string } | { ok: false; reason: 'too-large' | 'not-utf8' | 'aborted' };

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads the whole body of a request (or response), up to `limit` bytes. */
export async function readBody(
  request: { readonly headers: Headers; readonly body: ReadableStream<Uint8Array> | null },
  limit: number,
): Promise<BodyResult> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await request.body?.cancel().catch(() => {});
    return { ok: false, reason: 'too-large' };
  }
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: 'too-large' };
    }
    chunks.push(value);
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks, total);
  try {
    return { ok: true, text: decoder.decode(bytes) };
  } catch {
    return { ok: false, reason: 'not-utf8' };
  }
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

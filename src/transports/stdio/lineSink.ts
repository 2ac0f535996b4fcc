/**
 * @module Connects a {@link LineDecoder} to a transport's callbacks: each line is decoded as one
 * JSON-RPC message; oversized and undecodable lines become decode errors the connection answers.
 */
import { decodeMessage, peekEnvelope } from '../../jsonrpc/decode.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { encodeMessage } from '../../jsonrpc/rawJson.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { isUtf8 } from 'node:buffer';
import { LineDecoder, type Utf8Decode } from './lineDecoder.js';

/**
 * Buffer's native UTF-8 decoding; the strict validity check runs only when the text holds a
 * replacement character (which invalid bytes decode to, and valid text almost never contains).
 */
const decodeWithBuffer: Utf8Decode = (bytes, start, end) => {
  const buffer = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('utf8', start, end);
  if (text.includes('\uFFFD') && !isUtf8(buffer.subarray(start, end))) return undefined;
  return text;
};

/** Default maximum size of one stdio message (RELIABILITY.md). */
export const DEFAULT_MAX_MESSAGE_BYTES: number = 4 * 1024 * 1024;

/** Builds the decoder that feeds `transport`'s callbacks. */
export function decoderFor(
  transport: Transport,
  maxMessageBytes: number,
  maxDepth: number,
): LineDecoder {
  return new LineDecoder(
    {
      line(text) {
        const decoded = decodeMessage(text, maxDepth);
        if (decoded.ok) transport.onmessage?.(decoded.value);
        else transport.ondecodeerror?.(decoded.error, decoded.hint);
      },
      oversized(head, limit) {
        const error = new RpcError(
          ErrorCode.InvalidRequest,
          `Message exceeds the ${limit}-byte limit and was discarded`,
        );
        transport.ondecodeerror?.(error, peekEnvelope(head));
      },
      invalidUtf8() {
        transport.ondecodeerror?.(
          new RpcError(ErrorCode.ParseError, 'Parse error: the message is not valid UTF-8'),
          { hasMethod: false },
        );
      },
    },
    maxMessageBytes,
    decodeWithBuffer,
  );
}

/** Serialises one outgoing message as a line. */
export function encodeLine(message: unknown): string {
  return encodeMessage(message) + '\n';
}

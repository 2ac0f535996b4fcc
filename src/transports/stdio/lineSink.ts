/**
 * @module Connects a {@link LineDecoder} to a transport's callbacks: each line is decoded as one
 * JSON-RPC message; oversized and undecodable lines become decode errors the connection answers.
 */
import { decodeMessage, peekEnvelope } from '../../jsonrpc/decode.js';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { LineDecoder } from './lineDecoder.js';

/** Default maximum size of one stdio message (RELIABILITY.md). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

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
  );
}

/** Serialises one outgoing message as a line. */
export function encodeLine(message: unknown): string {
  return JSON.stringify(message) + '\n';
}

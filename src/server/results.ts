/**
 * @module Helpers that build every content type a tool result can carry, and error results.
 * They only assemble objects; the server checks and converts them per revision when sending.
 * At the top of server/ beside toolContext.ts: what a handler returns, as that file is what it
 * receives (used by tool authors, the call pipeline and sanitising alike).
 */
import type {
  Annotations,
  AudioContent,
  CallToolResult,
  EmbeddedResource,
  ImageContent,
  Meta,
  ResourceLink,
  TextContent,
} from '../protocol/types.js';

/** Options every content helper accepts. */
export interface ContentOptions {
  annotations?: Annotations;
  _meta?: Meta;
}

function withOptions<T extends object>(block: T, options: ContentOptions | undefined): T {
  if (options?.annotations !== undefined)
    Object.assign(block, { annotations: options.annotations });
  if (options?._meta !== undefined) Object.assign(block, { _meta: options._meta });
  return block;
}

/** Base64 of bytes, without depending on Node's Buffer (the core is runtime-neutral). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

function base64Of(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : toBase64(data);
}

/** A text block. */
export function text(value: string, options?: ContentOptions): TextContent {
  return withOptions({ type: 'text', text: value }, options);
}

/** An image block; `data` is base64 text or raw bytes. */
export function image(
  data: string | Uint8Array,
  mimeType: string,
  options?: ContentOptions,
): ImageContent {
  return withOptions({ type: 'image', data: base64Of(data), mimeType }, options);
}

/** An audio block; `data` is base64 text or raw bytes. Sent as an embedded resource before 2025-03-26. */
export function audio(
  data: string | Uint8Array,
  mimeType: string,
  options?: ContentOptions,
): AudioContent {
  return withOptions({ type: 'audio', data: base64Of(data), mimeType }, options);
}

/** A link to a resource. Sent as a text block before 2025-06-18. */
export function resourceLink(link: Omit<ResourceLink, 'type'>): ResourceLink {
  return { type: 'resource_link', ...link };
}

/** An embedded text resource. */
export function embeddedText(
  uri: string,
  value: string,
  options?: ContentOptions & { mimeType?: string },
): EmbeddedResource {
  const resource =
    options?.mimeType === undefined
      ? { uri, text: value }
      : { uri, mimeType: options.mimeType, text: value };
  return withOptions({ type: 'resource', resource }, options);
}

/** An embedded binary resource; `data` is base64 text or raw bytes. */
export function embeddedBlob(
  uri: string,
  data: string | Uint8Array,
  options?: ContentOptions & { mimeType?: string },
): EmbeddedResource {
  const blob = base64Of(data);
  const resource =
    options?.mimeType === undefined ? { uri, blob } : { uri, mimeType: options.mimeType, blob };
  return withOptions({ type: 'resource', resource }, options);
}

/** A tool execution error result (`isError: true`) the model can read and act on. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Throw this from a handler to fail the call with a message meant for the model. Its message is
 * sent as is; any other thrown error is reported with a generic message so that internals
 * (connection strings, paths, stack traces) never reach the client.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}

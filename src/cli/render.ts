/**
 * @module Readable text for tools and tool results, as the CLI prints them. Everything here comes
 * from the server, so every line passes through terminalText.ts before it is printed.
 */
import type { CallToolResult, ContentBlock, Tool } from '../index.js';
import { terminalLine, terminalText } from './terminalText.js';

function sizeOfBase64(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

function describeType(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const s = schema as { type?: unknown; enum?: unknown[]; items?: unknown };
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') return `${describeType(s.items)}[]`;
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.join(' | ');
  return 'any';
}

/**
 * The behaviour hints as plain words, with the spec's defaults for hints the server left out: a
 * tool is assumed to write (readOnlyHint false), possibly destructively (destructiveHint true),
 * not idempotently (idempotentHint false), reaching outside systems (openWorldHint true).
 * Destructive and idempotent mean something only for a tool that writes.
 */
export function behaviourOf(tool: Tool): string[] {
  const hints = tool.annotations ?? {};
  const marks: string[] = [];
  if (hints.readOnlyHint === true) marks.push('read-only');
  else {
    marks.push(hints.destructiveHint === false ? 'non-destructive' : 'destructive');
    marks.push(hints.idempotentHint === true ? 'idempotent' : 'not idempotent');
  }
  marks.push(hints.openWorldHint === false ? 'closed-world' : 'open-world');
  return marks;
}

/**
 * What a 2026-07-28 session says of a tool's task support, which its definition no longer
 * carries: the server decides per call when it offers the tasks extension. Undefined on 2025
 * sessions (a definition without `execution` means `forbidden` there).
 */
export function undeclaredTaskSupport(client: {
  readonly protocolVersion: string | undefined;
  readonly serverCapabilities: { extensions?: Record<string, object> } | undefined;
}): string | undefined {
  if (client.protocolVersion !== '2026-07-28') return undefined;
  return client.serverCapabilities?.extensions?.['io.modelcontextprotocol/tasks'] !== undefined
    ? 'the server decides (tasks extension)'
    : 'none (no tasks extension)';
}

/**
 * One tool as a few readable lines; `notes`: what the person should know of it (flagged with
 * `!`); `undeclaredTask`: what to say of a definition without task support (undeclaredTaskSupport).
 */
export function renderTool(
  tool: Tool,
  notes: readonly string[] = [],
  undeclaredTask = 'forbidden',
): string {
  const display = tool.title ?? tool.annotations?.title;
  const lines = [display && display !== tool.name ? `${tool.name} (${display})` : tool.name];
  if (typeof tool.description === 'string' && tool.description.trim() !== '')
    lines.push(`  ${tool.description.trim().replace(/\s*\n\s*/g, ' ')}`);
  const properties = (tool.inputSchema.properties ?? {}) as Record<
    string,
    { description?: string }
  >;
  const required = new Set(tool.inputSchema.required ?? []);
  for (const [name, schema] of Object.entries(properties)) {
    const flag = required.has(name) ? '' : '?';
    const about = typeof schema.description === 'string' ? `  ${schema.description}` : '';
    lines.push(`    ${name}${flag}: ${describeType(schema)}${about}`);
  }
  lines.push(`  behaviour (hints, untrusted): ${behaviourOf(tool).join(', ')}`);
  const output = tool.outputSchema ? 'yes' : 'no';
  lines.push(`  output schema: ${output}; task: ${tool.execution?.taskSupport ?? undeclaredTask}`);
  for (const note of notes) lines.push(`  ! ${note}`);
  return lines.map(terminalLine).join('\n');
}

function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${sizeOfBase64(block.data)} bytes]`;
    case 'resource_link':
      return `[link ${block.title ?? block.name} <${block.uri}>${block.description ? ` ${block.description}` : ''}]`;
    case 'resource': {
      const r = block.resource;
      if ('text' in r) return `[resource ${r.uri}]\n${r.text}`;
      return `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ''}, ${sizeOfBase64(r.blob)} bytes]`;
    }
    default:
      return `[unknown content ${JSON.stringify(block).slice(0, 80)}]`;
  }
}

/** A tool result as text: its content blocks, then structured content unless a block already shows it. */
export function renderResult(result: CallToolResult): string {
  const parts = result.content.map(renderBlock);
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    if (!result.content.some((b) => b.type === 'text' && b.text === json)) {
      parts.push(JSON.stringify(result.structuredContent, null, 2));
    }
  }
  return terminalText(parts.join('\n'));
}

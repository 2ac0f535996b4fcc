/**
 * @module What a peer of a given revision may receive: tool definitions, content blocks, tool
 * results, implementation info and capabilities, each cut down (or converted) to the fields its
 * revision defines. Pure functions; the server calls them once per tool and revision, and once
 * per result.
 */
import type {
  Annotations,
  CallToolResult,
  ContentBlock,
  EmbeddedResource,
  Implementation,
  ResourceLink,
  ServerCapabilities,
  JsonSchemaObject,
  TextContent,
  Tool,
  ToolAnnotations,
} from '../../types.js';
import { isPlainObject } from '../../../jsonrpc/guards.js';
import type { RevisionFeatures } from '../../versions.js';
import type { OutputShape } from '../era.js';

/**
 * An output schema whose root is not an object, as 2025-era peers need one (their schema requires
 * `type: "object"`): wrapped as `{ result: <schema> }`, the convention of the SDKs, with its
 * dialect and its `$defs` (or `definitions`) hoisted to the new root so that `#/$defs/…`
 * references still resolve. An object root is returned as it is.
 */
export function objectRootSchema(schema: JsonSchemaObject): JsonSchemaObject {
  if (schema.type === 'object') return schema;
  const { $schema, $defs, definitions, ...inner } = schema;
  const wrapped: JsonSchemaObject = {};
  if ($schema !== undefined) wrapped.$schema = $schema;
  wrapped.type = 'object';
  wrapped['properties'] = { result: inner };
  wrapped['required'] = ['result'];
  if ($defs !== undefined) wrapped['$defs'] = $defs;
  if (definitions !== undefined) wrapped['definitions'] = definitions;
  return wrapped;
}

/** A tool definition as a peer of the given revision may see it. */
export function toolForRevision(tool: Tool, f: RevisionFeatures): Tool {
  const out: Tool = { name: tool.name, inputSchema: tool.inputSchema };
  if (f.titles && tool.title !== undefined) out.title = tool.title;
  if (tool.description !== undefined) out.description = tool.description;
  if (f.toolAnnotations) {
    let annotations: ToolAnnotations | undefined = tool.annotations;
    // 2025-03-26 has no Tool.title, but annotations.title is the display name it does know.
    if (!f.titles && tool.title !== undefined && annotations?.title === undefined) {
      annotations = { ...annotations, title: tool.title };
    }
    if (annotations !== undefined) out.annotations = annotations;
  }
  if (f.structuredOutput && tool.outputSchema !== undefined)
    out.outputSchema = f.anyStructuredContent
      ? tool.outputSchema
      : objectRootSchema(tool.outputSchema);
  if (f.icons && tool.icons !== undefined) out.icons = tool.icons;
  if (f.tasks && tool.execution !== undefined) out.execution = tool.execution;
  if (f.contentMeta && tool._meta !== undefined) out._meta = tool._meta;
  return out;
}

function annotationsFor(a: Annotations, f: RevisionFeatures): Annotations | undefined {
  const out: Annotations = {};
  if (a.audience !== undefined) out.audience = a.audience;
  if (a.priority !== undefined) out.priority = a.priority;
  if (f.lastModified && a.lastModified !== undefined) out.lastModified = a.lastModified;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Copies the fields every content block shares (annotations, _meta) as the revision allows. */
function withCommon<T extends ContentBlock>(out: T, from: ContentBlock, f: RevisionFeatures): T {
  if (from.annotations !== undefined) {
    const a = annotationsFor(from.annotations, f);
    if (a !== undefined) out.annotations = a;
  }
  if (f.contentMeta && from._meta !== undefined) out._meta = from._meta;
  return out;
}

function describeLink(link: ResourceLink): string {
  const label = link.title ?? link.name;
  const lines = [`Resource link: ${label} <${link.uri}>`];
  if (link.mimeType !== undefined) lines.push(`Type: ${link.mimeType}`);
  if (link.size !== undefined) lines.push(`Size: ${link.size} bytes`);
  if (link.description !== undefined) lines.push(link.description);
  return lines.join('\n');
}

function embeddedFor(block: EmbeddedResource, f: RevisionFeatures): EmbeddedResource {
  const r = block.resource;
  const resource: EmbeddedResource['resource'] =
    'text' in r ? { uri: r.uri, text: r.text } : { uri: r.uri, blob: r.blob };
  if (r.mimeType !== undefined) resource.mimeType = r.mimeType;
  if (f.contentMeta && r._meta !== undefined) resource._meta = r._meta;
  return withCommon({ type: 'resource', resource }, block, f);
}

/**
 * One content block as the revision allows it. Types the revision lacks are converted, never
 * dropped: audio before 2025-03-26 becomes an embedded blob resource (the bytes and MIME type
 * survive); a resource link before 2025-06-18 becomes a text block naming the link.
 */
export function contentForRevision(
  block: ContentBlock,
  f: RevisionFeatures,
  index: number,
): ContentBlock {
  switch (block.type) {
    case 'text':
      return withCommon({ type: 'text', text: block.text }, block, f);
    case 'image':
      return withCommon({ type: 'image', data: block.data, mimeType: block.mimeType }, block, f);
    case 'audio':
      if (f.audioContent) {
        return withCommon({ type: 'audio', data: block.data, mimeType: block.mimeType }, block, f);
      }
      return withCommon(
        {
          type: 'resource',
          resource: {
            uri: `urn:toolwire:content:${index}`,
            mimeType: block.mimeType,
            blob: block.data,
          },
        },
        block,
        f,
      );
    case 'resource_link': {
      if (!f.resourceLinks) {
        return withCommon<TextContent>({ type: 'text', text: describeLink(block) }, block, f);
      }
      const out: ResourceLink = { type: 'resource_link', uri: block.uri, name: block.name };
      if (block.title !== undefined) out.title = block.title;
      if (block.description !== undefined) out.description = block.description;
      if (block.mimeType !== undefined) out.mimeType = block.mimeType;
      if (block.size !== undefined) out.size = block.size;
      if (f.icons && block.icons !== undefined) out.icons = block.icons;
      return withCommon(out, block, f);
    }
    case 'resource':
      return embeddedFor(block, f);
  }
}

/**
 * A tool result as the revision allows it. Before 2025-06-18 `structuredContent` does not exist,
 * so when a result carries only structured data its JSON becomes a text block; after, a value
 * that is no object goes as `{ result: … }` (`output`: see OutputShape).
 */
export function callToolResultForRevision(
  result: CallToolResult,
  f: RevisionFeatures,
  output?: OutputShape,
): CallToolResult {
  const content = result.content.map((block, i) => contentForRevision(block, f, i));
  const out: CallToolResult = { content };
  const structured = result.structuredContent;
  if (structured !== undefined) {
    if (f.structuredOutput) {
      // As the tool's schema is wrapped for these peers, so is its value (see objectRootSchema).
      const wrap =
        !f.anyStructuredContent && (output ? !output.objectRoot : !isPlainObject(structured));
      out.structuredContent = wrap ? { result: structured } : structured;
    } else if (content.length === 0) {
      content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
    }
  }
  if (result.isError !== undefined) out.isError = result.isError;
  if (result._meta !== undefined) out._meta = result._meta;
  return out;
}

/** Implementation info (`serverInfo` / `clientInfo`) as the revision allows it. */
export function implementationForRevision(
  info: Implementation,
  f: RevisionFeatures,
): Implementation {
  const out: Implementation = { name: info.name, version: info.version };
  if (f.titles && info.title !== undefined) out.title = info.title;
  if (f.implementationDetails) {
    if (info.description !== undefined) out.description = info.description;
    if (info.websiteUrl !== undefined) out.websiteUrl = info.websiteUrl;
  }
  if (f.icons && info.icons !== undefined) out.icons = info.icons;
  return out;
}

/** Server capabilities as the revision defines them. */
export function serverCapabilitiesForRevision(
  caps: ServerCapabilities,
  f: RevisionFeatures,
): ServerCapabilities {
  const out: ServerCapabilities = { ...caps };
  if (!f.completions) delete out.completions;
  if (!f.tasks) delete out.tasks;
  // Extensions are declared from 2026-07-28 on (the same revision as the stateless lifecycle).
  if (!f.stateless) delete out.extensions;
  return out;
}

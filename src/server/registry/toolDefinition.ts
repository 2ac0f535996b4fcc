/**
 * @module How a tool is declared (config, handler and their inferred types) and how a declaration
 * is checked and compiled once into the entry the registry keeps.
 */
import { paramHeadersOf, type ParamHeader } from '../../protocol/eras/rev2026/paramHeaders.js';
import { NO_ARGUMENTS } from './noArguments.js';
import { isPlainObject } from '../../jsonrpc/guards.js';
import { scopeListProblem } from '../../jsonrpc/scopes.js';
import { isReservedMetaKey, metaKeyProblem, toolNameProblem } from '../../protocol/naming.js';
import type {
  ContentBlock,
  Icon,
  Meta,
  ObjectJsonSchema,
  Tool,
  ToolAnnotations,
  ToolExecution,
} from '../../protocol/types.js';
import type { RevisionProfile } from '../../protocol/eras/era.js';
import type { Revision } from '../../protocol/versions.js';
import type { Middleware } from '../middleware/middleware.js';
import {
  compileOutputPolicy,
  type OutputPolicy,
  type SanitizeOptions,
} from '../sanitize/outputPolicy.js';
import { rateLimitRuleProblem, type RateLimitRule } from '../policy/rateLimitStore.js';
import type { ToolContext } from '../toolContext.js';
import {
  compileToolSchema,
  type InferInput,
  type InferOutput,
  type OutputSchemaInput,
  type SchemaInput,
  type ToolSchema,
} from './toolSchema.js';

/** Everything about a tool except its name and handler. */
export interface ToolConfig<
  I extends SchemaInput | undefined = undefined,
  O extends OutputSchemaInput | undefined = undefined,
> {
  /** Display name (2025-06-18+; sent as `annotations.title` to 2025-03-26 peers). */
  title?: string;
  description?: string;
  /** Standard Schema or JSON Schema; default: an object with no properties allowed. */
  inputSchema?: I;
  /** When set, every successful result must carry conforming `structuredContent`. */
  outputSchema?: O;
  annotations?: ToolAnnotations;
  /** `https:` or `data:` URIs only. */
  icons?: Icon[];
  /** Task support (2025-11-25). */
  execution?: ToolExecution;
  _meta?: Meta;
  /** Deadline of one call, after which its signal aborts and an error result is sent. */
  timeoutMs?: number;
  /**
   * Also serialise `structuredContent` into a text block when the handler returns no content
   * (the spec's SHOULD for backward compatibility). Default: the server's `structuredText`.
   */
  structuredText?: boolean;
  /** Calls allowed per principal on this tool; `false` exempts it from the server's default. */
  rateLimit?: RateLimitRule | false;
  /** Largest result this tool may send (JSON bytes); larger ones become an error result. */
  maxResultBytes?: number;
  /**
   * For a call run as a task: text the host may give the model at once while the task runs
   * (the `io.modelcontextprotocol/model-immediate-response` _meta of the CreateTaskResult).
   */
  immediateResponse?: string;
  /**
   * The handler asks for input before its task starts (the tasks extension, 2026-07-28): a
   * request that declared the extension is answered inline, with rounds of input, until the
   * handler calls `ctx.detach()`; the call then becomes a task and the handler runs again from the
   * start inside it, its earlier questions answered at once. Needs `execution.taskSupport`
   * `optional` or `required`. Elsewhere (2025 sessions, requests without the extension)
   * `detach()` does nothing and the tool runs as its task support says.
   */
  inputBeforeTask?: boolean;
  /**
   * Middleware for this tool's calls only: innermost, around the handler (after every server-wide
   * middleware and stage), so it sees the result before sanitising.
   */
  middleware?: readonly Middleware[];
  /**
   * OAuth scopes a caller must hold, all of them, to see and call this tool (its identity's
   * `scopes`): anyone else does not find it in `tools/list` and gets "unknown tool" for a call;
   * over HTTP with `oauth`, a call is answered 403 `insufficient_scope` naming the scopes needed.
   * A caller without an identity holds no scopes. Default: none needed.
   */
  scopes?: readonly string[];
  /**
   * Output sanitising for this tool, field by field over the server's `sanitize`; `false` turns
   * it off for this tool (docs/server.md: Output sanitising).
   */
  sanitize?: SanitizeOptions | false;
}

/** What a handler may return for a tool with an output schema of type `T`. */
export type StructuredReturn<T> =
  | { content?: ContentBlock[]; structuredContent: T; isError?: false; _meta?: Meta }
  | { content: ContentBlock[]; structuredContent?: T; isError: true; _meta?: Meta };

/** What a handler may return for a tool without an output schema (a string is one text block). */
export type UnstructuredReturn =
  | string
  | {
      content?: ContentBlock[];
      structuredContent?: unknown;
      isError?: boolean;
      _meta?: Meta;
    };

/** The return type of a handler given its output schema. */
export type ToolReturn<O> = O extends OutputSchemaInput
  ? StructuredReturn<InferInput<O>>
  : UnstructuredReturn;

/** The arguments a handler receives given its input schema. */
export type ToolArgs<I> = I extends SchemaInput ? InferOutput<I> : Record<string, never>;

/** A tool handler. */
export type ToolHandler<
  I extends SchemaInput | undefined,
  O extends OutputSchemaInput | undefined,
> = (args: ToolArgs<I>, context: ToolContext) => ToolReturn<O> | Promise<ToolReturn<O>>;

/** A handler with its types erased, as the registry stores it. */
export type AnyToolHandler = (args: never, context: ToolContext) => unknown;

/** A compiled, registered tool. */
export interface ToolEntry {
  readonly name: string;
  /** Registration order; never changes while the tool exists (see cursor.ts). */
  seq: number;
  enabled: boolean;
  definition: Tool;
  input: ToolSchema;
  output: ToolSchema | undefined;
  handler: AnyToolHandler;
  timeoutMs: number | undefined;
  structuredText: boolean | undefined;
  rateLimit: RateLimitRule | false | undefined;
  maxResultBytes: number | undefined;
  immediateResponse: string | undefined;
  /** Input by round trip before the task starts, at `ctx.detach()` (see ToolConfig). */
  inputBeforeTask: boolean;
  /** This tool's own middleware (undefined when it has none). */
  middleware: readonly Middleware[] | undefined;
  /** The scopes a caller needs for this tool (deduplicated, frozen); undefined when none. */
  scopes: readonly string[] | undefined;
  /** The tool's own `sanitize` option (checked at registration); undefined: the server's. */
  sanitize: SanitizeOptions | false | undefined;
  /** The output policy in force, over the server's: compiled on the first call. */
  outputPolicy: OutputPolicy | undefined;
  /** The arguments mirrored as `Mcp-Param-*` headers (`x-mcp-header`); undefined when none. */
  readonly paramHeaders: readonly ParamHeader[] | undefined;
  /** The definition as each revision may see it, computed on first use. */
  readonly projections: Map<Revision, Tool>;
}

/** The longest delay a timer can wait (a longer one fires at once in JavaScript runtimes). */
export const MAX_TIMER_MS = 2_147_483_647;

/** True for a delay a timer honours: positive, finite and at most {@link MAX_TIMER_MS}. */
export function isTimerDelay(ms: unknown): ms is number {
  return typeof ms === 'number' && ms > 0 && ms <= MAX_TIMER_MS;
}

/** True for a usable size limit: a positive safe integer. */
export function isByteLimit(bytes: unknown): bytes is number {
  return Number.isSafeInteger(bytes) && (bytes as number) > 0;
}

function fail(name: string, message: string): never {
  throw new TypeError(`Tool "${name}": ${message}`);
}

function checkAnnotations(name: string, a: unknown): void {
  if (a === undefined) return;
  if (!isPlainObject(a)) fail(name, 'annotations must be an object');
  for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
    if (a[hint] !== undefined && typeof a[hint] !== 'boolean')
      fail(name, `annotations.${hint} must be a boolean`);
  }
  if (a['title'] !== undefined && typeof a['title'] !== 'string')
    fail(name, 'annotations.title must be a string');
}

function checkIcons(name: string, icons: unknown): void {
  if (icons === undefined) return;
  if (!Array.isArray(icons)) fail(name, 'icons must be an array');
  for (const icon of icons) {
    if (!isPlainObject(icon) || typeof icon['src'] !== 'string')
      fail(name, 'every icon needs a string "src"');
    if (!/^(https:|data:)/i.test(icon['src'])) {
      fail(
        name,
        `icon src must be an https: or data: URI (got ${JSON.stringify(icon['src'].slice(0, 40))})`,
      );
    }
    if (icon['theme'] !== undefined && icon['theme'] !== 'light' && icon['theme'] !== 'dark') {
      fail(name, 'icon theme must be "light" or "dark"');
    }
  }
}

function checkMeta(name: string, meta: unknown): void {
  if (meta === undefined) return;
  if (!isPlainObject(meta)) fail(name, '_meta must be an object');
  for (const key of Object.keys(meta)) {
    const problem = metaKeyProblem(key);
    if (problem) fail(name, problem);
    if (isReservedMetaKey(key))
      fail(
        name,
        `_meta key "${key}" uses a prefix reserved for MCP itself (second label "modelcontextprotocol" or "mcp"); use a prefix of your own, such as "com.example/"`,
      );
  }
}

/** Checks a declaration and compiles its schemas. Throws a TypeError naming the problem. */
export function compileTool(
  name: string,
  config: ToolConfig<SchemaInput | undefined, OutputSchemaInput | undefined>,
  handler: AnyToolHandler,
): Omit<ToolEntry, 'seq'> {
  const nameProblem = toolNameProblem(name);
  if (nameProblem) throw new TypeError(`Invalid tool name ${JSON.stringify(name)}: ${nameProblem}`);
  if (typeof handler !== 'function') fail(name, 'the handler must be a function');
  if (config.title !== undefined && typeof config.title !== 'string')
    fail(name, 'title must be a string');
  if (config.description !== undefined && typeof config.description !== 'string')
    fail(name, 'description must be a string');
  checkAnnotations(name, config.annotations);
  checkIcons(name, config.icons);
  checkMeta(name, config._meta);
  const taskSupport = config.execution?.taskSupport;
  if (taskSupport !== undefined && !['forbidden', 'optional', 'required'].includes(taskSupport)) {
    fail(name, 'execution.taskSupport must be "forbidden", "optional" or "required"');
  }
  if (config.inputBeforeTask !== undefined && typeof config.inputBeforeTask !== 'boolean')
    fail(name, 'inputBeforeTask must be a boolean');
  if (config.inputBeforeTask === true && taskSupport !== 'optional' && taskSupport !== 'required')
    fail(name, 'inputBeforeTask needs execution.taskSupport "optional" or "required"');
  if (config.timeoutMs !== undefined && !isTimerDelay(config.timeoutMs))
    fail(name, `timeoutMs must be a positive number of milliseconds up to ${MAX_TIMER_MS}`);
  if (config.maxResultBytes !== undefined && !isByteLimit(config.maxResultBytes))
    fail(name, 'maxResultBytes must be a positive whole number of bytes');
  if (config.rateLimit !== undefined && config.rateLimit !== false) {
    const problem = rateLimitRuleProblem(config.rateLimit);
    if (problem) fail(name, problem);
  }
  const middleware = config.middleware;
  if (
    middleware !== undefined &&
    (!Array.isArray(middleware) || middleware.some((m) => typeof m !== 'function'))
  )
    fail(name, 'middleware must be an array of functions');
  const scopes = toolScopes(name, config.scopes);
  if (config.sanitize !== undefined) {
    try {
      compileOutputPolicy(config.sanitize); // checked now, compiled over the server's on first use
    } catch (error) {
      fail(name, (error as Error).message);
    }
  }

  const input =
    config.inputSchema === undefined
      ? NO_ARGUMENTS
      : compileToolSchema(config.inputSchema, 'input', name);
  const output =
    config.outputSchema === undefined
      ? undefined
      : compileToolSchema(config.outputSchema, 'output', name);
  // An input schema's root is an object: compileToolSchema refused any other.
  const definition: Tool = { name, inputSchema: input.jsonSchema as ObjectJsonSchema };
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  if (output) definition.outputSchema = output.jsonSchema;
  if (config.annotations !== undefined) definition.annotations = { ...config.annotations };
  if (config.icons !== undefined) definition.icons = config.icons.map((i) => ({ ...i }));
  if (config.execution !== undefined) definition.execution = { ...config.execution };
  if (config._meta !== undefined) definition._meta = { ...config._meta };
  const mirrored = paramHeadersOf(definition);
  if ('problem' in mirrored) fail(name, `its input schema is unusable: ${mirrored.problem}`);
  return {
    name,
    enabled: true,
    definition,
    input,
    output,
    handler,
    timeoutMs: config.timeoutMs,
    structuredText: config.structuredText,
    rateLimit: config.rateLimit,
    maxResultBytes: config.maxResultBytes,
    immediateResponse: config.immediateResponse,
    inputBeforeTask: config.inputBeforeTask === true,
    // A copy, so that later changes to the caller's array change nothing; none when empty.
    middleware:
      middleware !== undefined && middleware.length > 0 ? Array.from(middleware) : undefined,
    scopes,
    sanitize: config.sanitize,
    outputPolicy: undefined,
    paramHeaders: mirrored.headers.length === 0 ? undefined : mirrored.headers,
    projections: new Map(),
  };
}

/** The scopes of a declaration, checked and deduplicated; undefined for none. */
function toolScopes(name: string, scopes: unknown): readonly string[] | undefined {
  if (scopes === undefined) return undefined;
  const problem = scopeListProblem(scopes);
  if (problem) fail(name, `scopes: ${problem}`);
  const unique = [...new Set(scopes as string[])];
  return unique.length === 0 ? undefined : Object.freeze(unique);
}

/** The definition of `entry` as a peer of `profile`'s revision may see it (cached). */
export function projectedDefinition(entry: ToolEntry, profile: RevisionProfile): Tool {
  let tool = entry.projections.get(profile.revision);
  if (!tool) {
    tool = profile.tool(
      profile.features.schemaDialects ? entry.definition : withLegacySchemas(entry),
    );
    entry.projections.set(profile.revision, tool);
  }
  return tool;
}

/** The definition with the schemas a peer before 2025-11-25 receives (see ToolSchema). */
function withLegacySchemas(entry: ToolEntry): Tool {
  const tool: Tool = {
    ...entry.definition,
    inputSchema: entry.input.legacyJsonSchema() as ObjectJsonSchema,
  };
  if (entry.output) tool.outputSchema = entry.output.legacyJsonSchema();
  return tool;
}

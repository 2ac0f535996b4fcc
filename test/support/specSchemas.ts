/**
 * @module Validation of messages against the official MCP JSON Schemas, copied into test/spec/
 * (see test/spec/README.md for their source). The official schemas leave most objects open (no
 * `additionalProperties: false`), so a field a revision does not define would pass. The strict
 * variant closes every object that lists its properties, except user-supplied JSON (tool schemas,
 * arguments, structured content, _meta), so a `title` sent to a 2024-11-05 peer fails here. The
 * strict variant is itself checked against the official examples (test/contract/specSchemas.test.ts).
 * Nothing is read until a schema is first needed: this module is imported by the setup file of
 * every test file, and most of them never validate a message.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ProtocolVersion, Revision } from '../../src/protocol/versions.js';

/** The repository's copy of the official spec material: `<revision>/schema.json` and examples. */
export const SPEC_DIR = fileURLToPath(new URL('../spec/', import.meta.url));

/** The official examples written for the 2025-11-25 schema: `<Definition>/<name>.json`. */
export const EXAMPLES_2025_11_25 = `${SPEC_DIR}2025-11-25/examples`;

/** The official JSON Schema of one revision (the repository's copy). */
export function schemaFile(version: Revision): string {
  return `${SPEC_DIR}${version}/schema.json`;
}

/** Object properties whose values are user data or open by design: never closed. */
const OPEN = new Set([
  'inputSchema',
  'outputSchema',
  'requestedSchema',
  'structuredContent',
  'arguments',
  '_meta',
  'experimental',
  'metadata',
  'data',
  'params',
  'content', // ElicitResult.content is user data; content blocks are closed through their $refs
  'properties',
  'error', // URLElicitationRequiredError narrows `error` with allOf; the Error definition stays closed
]);

type Node = Record<string, unknown>;

const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ??
  addFormatsImport) as (ajv: Ajv) => void;

/**
 * Replaces a definition made of `allOf` object members (GetTaskResult = Result + Task...) with one
 * object holding all their properties, so closing it does not reject one member's fields for the
 * other's sake.
 */
function mergeAllOf(defs: Node): void {
  const resolve = (member: unknown): Node | undefined => {
    const m = member as Node;
    const ref = typeof m['$ref'] === 'string' ? m['$ref'].split('/').pop() : undefined;
    const target = ref !== undefined ? (defs[ref] as Node | undefined) : m;
    if (target && Array.isArray(target['allOf'])) return undefined; // nested compositions stay as they are
    return target;
  };
  for (const [name, def] of Object.entries(defs)) {
    const d = def as Node;
    if (!Array.isArray(d['allOf'])) continue;
    const members = (d['allOf'] as unknown[]).map(resolve);
    if (members.some((m) => !m || typeof m['properties'] !== 'object')) continue;
    const properties: Node = {};
    const required = new Set<string>();
    for (const m of members as Node[]) {
      Object.assign(properties, structuredClone(m['properties']));
      for (const r of (m['required'] as string[] | undefined) ?? []) required.add(r);
    }
    defs[name] = {
      type: 'object',
      properties,
      required: [...required],
      ...(d['description'] ? { description: d['description'] } : {}),
    };
  }
}

function strictify(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    node.forEach(strictify);
    return;
  }
  const n = node as Node;
  const props = n['properties'];
  if (
    props &&
    typeof props === 'object' &&
    !('additionalProperties' in n) &&
    (n['type'] === 'object' || n['type'] === undefined)
  ) {
    n['additionalProperties'] = false;
  }
  if (props && typeof props === 'object') {
    for (const [key, value] of Object.entries(props as Node)) {
      if (!OPEN.has(key)) strictify(value);
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) if (key in n) strictify(n[key]);
  for (const key of ['definitions', '$defs']) {
    const defs = n[key];
    if (defs && typeof defs === 'object') Object.values(defs as Node).forEach(strictify);
  }
}

interface RevisionSchemas {
  ajv: Ajv;
  defsKey: 'definitions' | '$defs';
  cache: Map<string, ValidateFunction>;
}

const loaded = new Map<string, RevisionSchemas>();

function revision(version: Revision, strict: boolean): RevisionSchemas {
  const key = `${version}:${strict}`;
  let r = loaded.get(key);
  if (r) return r;
  const schema = JSON.parse(readFileSync(schemaFile(version), 'utf8')) as Node;
  if (strict) {
    mergeAllOf((schema['$defs'] ?? schema['definitions']) as Node);
    strictify(schema);
  }
  const is2020 = String(schema['$schema']).includes('2020-12');
  const ajv = is2020
    ? new Ajv2020({ strict: false, allErrors: true })
    : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  schema['$id'] = `urn:mcp:${key}`;
  ajv.addSchema(schema);
  r = { ajv, defsKey: is2020 ? '$defs' : 'definitions', cache: new Map() };
  loaded.set(key, r);
  return r;
}

/** True when the revision's schema defines `name`. */
export function hasDefinition(version: Revision, name: string): boolean {
  const r = revision(version, false);
  return r.ajv.getSchema(`urn:mcp:${version}:false#/${r.defsKey}/${name}`) !== undefined;
}

/** Validates `value` against definition `name`; returns the problems (empty when valid). */
export function validateDefinition(
  version: Revision,
  name: string,
  value: unknown,
  strict = true,
): string[] {
  const r = revision(version, strict);
  let validate = r.cache.get(name);
  if (!validate) {
    validate = r.ajv.getSchema(`urn:mcp:${version}:${strict}#/${r.defsKey}/${name}`);
    if (!validate) throw new Error(`${version} has no definition ${name}`);
    r.cache.set(name, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (e) => `${name}${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`,
  );
}

const RESULT_OF: Record<string, string> = {
  initialize: 'InitializeResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  ping: 'EmptyResult',
  'logging/setLevel': 'EmptyResult',
  'sampling/createMessage': 'CreateMessageResult',
  'elicitation/create': 'ElicitResult',
  'roots/list': 'ListRootsResult',
  'tasks/get': 'GetTaskResult',
  'tasks/list': 'ListTasksResult',
  'tasks/cancel': 'CancelTaskResult',
  // toolwire runs only tools/call as tasks, so a task's payload is a CallToolResult.
  'tasks/result': 'CallToolResult',
};

const REQUEST_OF: Record<string, string> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'logging/setLevel': 'SetLevelRequest',
  'sampling/createMessage': 'CreateMessageRequest',
  'elicitation/create': 'ElicitRequest',
  'roots/list': 'ListRootsRequest',
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'tasks/list': 'ListTasksRequest',
  'tasks/cancel': 'CancelTaskRequest',
};

const NOTIFICATION_OF: Record<string, string> = {
  'notifications/initialized': 'InitializedNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/roots/list_changed': 'RootsListChangedNotification',
  'notifications/tasks/status': 'TaskStatusNotification',
};

/**
 * Validates one message a toolwire peer sent on a connection that negotiated `version`.
 * `methodOf` maps a response id to the method of the request it answers.
 */
export function validateMessage(
  version: ProtocolVersion,
  message: unknown,
  methodOf: (id: string | number) => string | undefined,
): string[] {
  if (Array.isArray(message)) {
    if (version !== '2025-03-26') return ['a batch was sent on a revision without batches'];
    return message.flatMap((m) => validateMessage(version, m, methodOf));
  }
  const m = message as Node;
  const modern = version === '2025-11-25';
  const strip = (x: Node): Node => {
    const { jsonrpc: _j, id: _i, ...rest } = x;
    return rest;
  };
  if ('error' in m) {
    // JSON-RPC 2.0 requires id:null when the request id could not be read; revisions before
    // 2025-11-25 cannot express that, so such an error is checked against the newest schema.
    if (m['id'] === null)
      return validateDefinition('2025-11-25', 'JSONRPCErrorResponse', {
        ...m,
        id: undefined,
      }).filter((e) => !e.includes('/id'));
    return validateDefinition(version, modern ? 'JSONRPCErrorResponse' : 'JSONRPCError', m);
  }
  if ('result' in m) {
    const envelope = validateDefinition(
      version,
      modern ? 'JSONRPCResultResponse' : 'JSONRPCResponse',
      m,
      false,
    );
    const method = methodOf(m['id'] as string | number);
    // A task-augmented tools/call is answered with a CreateTaskResult (the unions of the schema omit it).
    const isCreateTask =
      method === 'tools/call' &&
      typeof m['result'] === 'object' &&
      m['result'] !== null &&
      'task' in m['result'];
    const def = isCreateTask ? 'CreateTaskResult' : method ? RESULT_OF[method] : undefined;
    if (!def) return [...envelope, `response to an unknown request ${String(m['id'])}`];
    return [...envelope, ...validateDefinition(version, def, m['result'])];
  }
  const method = String(m['method']);
  if ('id' in m) {
    const def = REQUEST_OF[method];
    if (!def || !hasDefinition(version, def))
      return [`request ${method} does not exist in ${version}`];
    const envelope = validateDefinition(version, 'JSONRPCRequest', m, false);
    return [...envelope, ...validateDefinition(version, def, modern ? m : strip(m))];
  }
  const def = NOTIFICATION_OF[method];
  if (!def || !hasDefinition(version, def))
    return [`notification ${method} does not exist in ${version}`];
  const envelope = validateDefinition(version, 'JSONRPCNotification', m, false);
  return [...envelope, ...validateDefinition(version, def, modern ? m : strip(m))];
}

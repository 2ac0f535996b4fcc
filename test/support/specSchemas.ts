/**
 * @module Validation of messages against the official MCP JSON Schemas in ../shared/spec. The
 * official schemas leave most objects open (no `additionalProperties: false`), so a field a
 * revision does not define would pass. The strict variant closes every object that lists its
 * properties, except user-supplied JSON (tool schemas, arguments, structured content, _meta), so a
 * `title` sent to a 2024-11-05 peer fails here. The strict variant is itself checked against the
 * official examples (test/contract/specSchemas.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ProtocolVersion } from '../../src/protocol/versions.js';

/**
 * The official spec material (../shared/spec): TOOLWIRE_SPEC_DIR when set, else the `shared/`
 * folder beside the checkout, else the workplace's. A missing copy fails the tests loudly.
 */
function findSpecDir(): string {
  const candidates = [
    process.env['TOOLWIRE_SPEC_DIR'],
    fileURLToPath(new URL('../../../shared/spec/', import.meta.url)),
    '/work/shared/spec/',
  ];
  for (const dir of candidates) {
    if (dir && existsSync(`${dir}/schema/2025-11-25/schema.json`))
      return dir.endsWith('/') ? dir : `${dir}/`;
  }
  throw new Error(
    `The official MCP schemas were not found (looked in ${candidates.filter(Boolean).join(', ')}). Set TOOLWIRE_SPEC_DIR.`,
  );
}

export const SPEC_DIR = findSpecDir();

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

function revision(version: ProtocolVersion, strict: boolean): RevisionSchemas {
  const key = `${version}:${strict}`;
  let r = loaded.get(key);
  if (r) return r;
  const schema = JSON.parse(
    readFileSync(`${SPEC_DIR}schema/${version}/schema.json`, 'utf8'),
  ) as Node;
  if (strict) strictify(schema);
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
export function hasDefinition(version: ProtocolVersion, name: string): boolean {
  const r = revision(version, false);
  return r.ajv.getSchema(`urn:mcp:${version}:false#/${r.defsKey}/${name}`) !== undefined;
}

/** Validates `value` against definition `name`; returns the problems (empty when valid). */
export function validateDefinition(
  version: ProtocolVersion,
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
};

const NOTIFICATION_OF: Record<string, string> = {
  'notifications/initialized': 'InitializedNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/progress': 'ProgressNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/roots/list_changed': 'RootsListChangedNotification',
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
    const def = method ? RESULT_OF[method] : undefined;
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

/**
 * @module Connects a toolwire client to a server over an in-memory pair while recording every
 * message each side sends, so a test can check all of them against the official schema of the
 * negotiated revision. A connection is made in one protocol era ({@link ERAS}): a test written
 * as `describe.each(ERAS)` runs its cases in every era the harness knows.
 */
import { McpClient, type ClientOptions } from '../../src/client.js';
import type { Identity, Transport } from '../../src/jsonrpc/transport.js';
import type { JsonRpcMessage } from '../../src/jsonrpc/types.js';
import {
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Revision,
} from '../../src/protocol/versions.js';
import type { McpServer, ServerSession } from '../../src/server.js';
import { createLinkedPair } from '../../src/transports/memory.js';
import { validateMessage, validateMessage2026 } from './specSchemas.js';

/** Records what goes through `send` (as JSON, the way a peer sees it). */
export function recording(transport: Transport): { transport: Transport; sent: unknown[] } {
  const sent: unknown[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message: JsonRpcMessage | JsonRpcMessage[], options) => {
    sent.push(JSON.parse(JSON.stringify(message)) as unknown);
    return send(message, options);
  };
  return { transport, sent };
}

function methodsById(messages: unknown[]): Map<string | number, string> {
  const map = new Map<string | number, string>();
  for (const m of messages.flat()) {
    const r = m as { id?: string | number; method?: string };
    if (r.id !== undefined && r.method !== undefined) map.set(r.id, r.method);
  }
  return map;
}

/** Problems found in every message both sides sent (empty when all are valid for `version`). */
export function wireProblems(
  version: Revision,
  serverSent: unknown[],
  clientSent: unknown[],
  checkClient = true,
): string[] {
  const clientRequests = methodsById(clientSent);
  const serverRequests = methodsById(serverSent);
  const problems: string[] = [];
  // 2026-07-28: the tasks extension's messages are checked against its own schema.
  const validate = (
    v: Revision,
    m: unknown,
    methodOf: (id: string | number) => string | undefined,
  ) => (v === '2026-07-28' ? validateMessage2026(m, methodOf) : validateMessage(v, m, methodOf));
  for (const m of serverSent) {
    for (const p of validate(version, m, (id) => clientRequests.get(id)))
      problems.push(`server sent ${JSON.stringify(m).slice(0, 300)}: ${p}`);
  }
  for (const m of checkClient ? clientSent : []) {
    // The client's initialize is sent before a version is negotiated; it is valid for the version it offers.
    const v = (m as { method?: string }).method === 'initialize' ? '2025-11-25' : version;
    for (const p of validate(v, m, (id) => serverRequests.get(id)))
      problems.push(`client sent ${JSON.stringify(m).slice(0, 300)}: ${p}`);
  }
  return problems;
}

export interface Connected {
  client: McpClient;
  session: ServerSession;
  serverSent: unknown[];
  clientSent: unknown[];
  /** Problems in everything sent so far. */
  problems(): string[];
  /** For a test that sends malformed requests on purpose: only the server's messages are checked. */
  checkServerOnly(): void;
}

/**
 * The protocol eras a test can connect in: the 2025 era (the handshake revisions, 2024-11-05 to
 * 2025-11-25) and the stateless 2026 era (2026-07-28, the client pinned to it). Every
 * `describe.each(ERAS)` runs its cases against both.
 */
export const ERAS = ['2025', '2026'] as const;

/** One protocol era of {@link ERAS}. */
export type Era = (typeof ERAS)[number];

/** The revisions of each era, oldest first: a test may pin one with `connect`'s `version`. */
export const ERA_REVISIONS: { readonly [E in Era]: readonly Revision[] } = {
  '2025': SUPPORTED_PROTOCOL_VERSIONS,
  '2026': MODERN_PROTOCOL_VERSIONS,
};

/** How {@link connect} connects. */
export interface ConnectOptions {
  /** The protocol era to speak (the 2025 era, with its handshake, when absent). */
  era?: Era;
  /** The one revision the client accepts (one of the era's {@link ERA_REVISIONS}). */
  version?: Revision;
  client?: ClientOptions;
  identity?: Identity;
}

const open: Connected[] = [];

/**
 * Every connection made by {@link connect} since the last call, with what it sent; the vitest
 * setup file validates them all after each test (test/support/validateWire.ts).
 */
export function takeConnections(): Connected[] {
  return open.splice(0);
}

/** Connects a new client (in `era`, accepting only `version`, when given) to `server`. */
export async function connect(server: McpServer, options: ConnectOptions = {}): Promise<Connected> {
  return CONNECTORS[options.era ?? '2025'](server, options);
}

/** Connects in the 2025 era: the client's `initialize` handshake over an in-memory pair. */
function connect2025(server: McpServer, options: ConnectOptions): Promise<Connected> {
  const version = options.version;
  return connectWith(server, options, {
    protocolEra: 'legacy',
    ...(version
      ? { protocolVersions: [version as (typeof SUPPORTED_PROTOCOL_VERSIONS)[number]] }
      : {}),
    ...options.client,
  });
}

/** Connects in the 2026 era: the client pinned to 2026-07-28 (`server/discover`, no handshake). */
function connect2026(server: McpServer, options: ConnectOptions): Promise<Connected> {
  return connectWith(server, options, { ...options.client, protocolEra: 'modern' });
}

/** Connects a client with `clientOptions` over an in-memory pair, recording both sides. */
async function connectWith(
  server: McpServer,
  options: ConnectOptions,
  clientOptions: ClientOptions,
): Promise<Connected> {
  const [clientEnd, serverEnd] = createLinkedPair();
  const s = recording(serverEnd);
  const c = recording(clientEnd);
  const session = await server.connect(
    s.transport,
    options.identity ? { identity: options.identity } : {},
  );
  const client = new McpClient({ name: 'test-client', version: '1.0.0' }, clientOptions);
  await client.connect(c.transport);
  const version = client.protocolVersion as Revision;
  let clientChecked = true;
  const connected: Connected = {
    client,
    session,
    serverSent: s.sent,
    clientSent: c.sent,
    problems: () => wireProblems(version, s.sent, c.sent, clientChecked),
    checkServerOnly: () => {
      clientChecked = false;
    },
  };
  open.push(connected);
  return connected;
}

/** One connector per era: adding an era to {@link ERAS} fails to compile until it has one. */
const CONNECTORS: {
  readonly [E in Era]: (server: McpServer, options: ConnectOptions) => Promise<Connected>;
} = { '2025': connect2025, '2026': connect2026 };

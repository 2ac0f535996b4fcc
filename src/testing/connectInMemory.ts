/**
 * @module A client connected to a server in memory at a chosen revision, in one call, for the
 * tests of a server's tools; optionally with every message the server sends checked against the
 * official schema of that revision, closed so that a field the revision lacks fails.
 */
import {
  createLinkedPair,
  LATEST_PROTOCOL_VERSION,
  McpClient,
  MODERN_PROTOCOL_VERSIONS,
  SUPPORTED_PROTOCOL_VERSIONS,
  type ClientOptions,
  type ConnectOptions,
  type Implementation,
  type McpServer,
  type ProtocolVersion,
  type Revision,
  type ServerSession,
  type Transport,
} from '../index.js';
import { CheckedTransport } from './checkedTransport.js';
import { revisionCheck } from './eras/revisionChecks.js';
import type { WireViolation } from './wireViolation.js';

/** Options of {@link connectInMemory}. */
export interface InMemoryConnectOptions {
  /**
   * The revision the client asks for and accepts (no other is negotiated): one of
   * `SUPPORTED_PROTOCOL_VERSIONS` (the `initialize` handshake), or `2026-07-28`, whose client
   * opens with `server/discover` and sends every request stateless. Default
   * `LATEST_PROTOCOL_VERSION` (2025-11-25).
   */
  revision?: Revision;
  /**
   * Check every message the server sends against the official JSON Schema of `revision`, in its
   * strict form: every object that lists its properties is closed, so a field the revision does
   * not define fails (a tool's `title` before 2025-06-18, `icons` before 2025-11-25), as do a
   * method or a content type it lacks. User data stays open (tool schemas, arguments,
   * `structuredContent`, `_meta`). At 2026-07-28 the messages of the tasks extension
   * (`tasks/get`, `tasks/update`, `tasks/cancel` and their results, `notifications/tasks`, a call
   * answered with a task, a listen's `taskIds`) are checked against the extension's draft schema
   * instead, as published (not closed). A message that fails never reaches the client: the
   * request it answers (or, for any other message, every request waiting) rejects with a
   * {@link WireViolation} naming the revision, the JSON pointer of each problem and the message;
   * one that no request could report makes `close()` reject with it. Ajv and the schemas are
   * loaded on the first connection of each revision. Default false.
   */
  validateWire?: boolean;
  /** The client's name and version. Default `{ name: 'toolwire-testing', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  /**
   * Options of the client: `handlers` for sampling, elicitation and roots, `onLog`,
   * `requestTimeoutMs`... (`protocolVersions` is `[revision]`).
   */
  client?: ClientOptions;
  /** Options of `server.connect()`, e.g. the caller's `identity`. */
  server?: ConnectOptions;
}

/** What {@link connectInMemory} connected. */
export interface InMemoryConnection {
  /** The client, initialized. */
  readonly client: McpClient;
  /** The server's side of the connection. */
  readonly session: ServerSession;
  /** The revision in use. */
  readonly revision: Revision;
  /** Every violation found so far (with `validateWire`), oldest first. */
  readonly violations: readonly WireViolation[];
  /**
   * Closes the client, and with it the server's session. Rejects with the first violation that
   * no request reported, if any, so a message that broke the schema never goes unnoticed.
   */
  close(): Promise<void>;
}

/**
 * Connects a new client to `server` over an in-memory pair (messages are serialised as on a real
 * wire) at one revision, for a test:
 *
 * ```ts
 * // Any of SUPPORTED_PROTOCOL_VERSIONS (from 'toolwire'): here the newest.
 * const { client, close } = await connectInMemory(server, {
 *   revision: LATEST_PROTOCOL_VERSION,
 *   validateWire: true,
 * });
 * try {
 *   const result = await client.callTool('forecast', { city: 'Oslo' });
 *   expect(result.structuredContent).toEqual({ city: 'Oslo', celsius: 21.5 });
 * } finally {
 *   await close();
 * }
 * ```
 */
export async function connectInMemory(
  server: McpServer,
  options: InMemoryConnectOptions = {},
): Promise<InMemoryConnection> {
  const revision: Revision = options.revision ?? LATEST_PROTOCOL_VERSION;
  const modern = (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(revision);
  if (!modern && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(revision))
    throw new RangeError(
      `Unknown revision ${JSON.stringify(revision)}: use one of ${[...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS].join(', ')}`,
    );
  const violations: WireViolation[] = [];
  const unreported: WireViolation[] = [];
  const [clientEnd, serverEnd] = createLinkedPair();
  let clientTransport: Transport = clientEnd;
  if (options.validateWire === true) {
    const rules = await revisionCheck(revision);
    clientTransport = new CheckedTransport(clientEnd, {
      revision,
      rules,
      violated: (violation, reported) => {
        violations.push(violation);
        if (!reported) unreported.push(violation);
      },
    });
  }
  const session = await server.connect(serverEnd, options.server ?? {});
  const client = new McpClient(
    options.clientInfo ?? { name: 'toolwire-testing', version: '0.0.0' },
    modern
      ? { ...options.client, protocolEra: 'modern' }
      : {
          // A 2025 revision, negotiated by the initialize handshake.
          ...options.client,
          protocolEra: 'legacy',
          protocolVersions: [revision as ProtocolVersion],
        },
  );
  try {
    await client.connect(clientTransport);
  } catch (error) {
    await session.close();
    throw error;
  }
  return {
    client,
    session,
    revision,
    violations,
    close: async () => {
      await client.close();
      await session.close();
      const first = unreported[0];
      if (first !== undefined) throw first;
    },
  };
}

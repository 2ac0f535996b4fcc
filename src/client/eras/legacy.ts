/**
 * @module The 2025-era client session: the `initialize` handshake (offering the newest revision
 * the client accepts, refusing one it does not), then plain requests; what the agreed revision
 * allows comes from its feature table.
 */
import type { Connection } from '../../jsonrpc/connection.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type { JsonSchemaDialect } from '../../protocol/jsonSchema.js';
import { CallTool, Initialize, Initialized, ListTools, SetLevel } from '../../protocol/methods.js';
import { parseInitializeResult } from '../../protocol/params.js';
import type { InitializeResult, LoggingLevel, Tool } from '../../protocol/types.js';
import {
  featuresOf,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type RevisionFeatures,
} from '../../protocol/versions.js';
import {
  callRequestOptions,
  openingRequestOptions,
  type CallSendOptions,
  type EraSession,
  type Opening,
} from './eraSession.js';

/** A session opened by `initialize`. */
class LegacySession implements EraSession {
  readonly features: RevisionFeatures;
  readonly schemaDialect: JsonSchemaDialect;
  readonly trustsCompleteListing: boolean;
  readonly callsNeedDefinition = false;
  /** 2025 sessions get `list_changed` without subscribing. */
  readonly listening = false;

  constructor(readonly server: InitializeResult) {
    this.features = featuresOf(server.protocolVersion);
    // 2020-12 from 2025-11-25 (SEP-1613), draft-07 before.
    this.schemaDialect = this.features.schemaDialects ? '2020-12' : 'draft-07';
    this.trustsCompleteListing = server.capabilities.tools?.listChanged === true;
  }

  unspoken(): undefined {
    return undefined;
  }

  taskCallsOffered(): boolean {
    return this.server.capabilities.tasks?.requests?.tools?.call !== undefined;
  }

  listPage(
    connection: Connection,
    cursor: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> {
    return connection.request(
      ListTools.method,
      cursor === undefined ? {} : { cursor },
      signal ? { signal } : {},
    );
  }

  keepTools(tools: Tool[]): Tool[] {
    return tools;
  }

  async setLogLevel(connection: Connection, level: LoggingLevel): Promise<void> {
    await connection.request(SetLevel.method, { level });
  }

  /** Nothing is cached: a 2025 listing stays in the client's catalog until `list_changed`. */
  toolsChanged(): void {}

  /** There is no `subscriptions/listen` in the 2025 era. */
  acknowledged(): void {}

  sendCall(
    connection: Connection,
    params: JsonObject,
    options: CallSendOptions,
  ): Promise<JsonObject> {
    const sendOptions = callRequestOptions(options);
    return connection.request(
      CallTool.method,
      params,
      options.scope ? { ...sendOptions, scope: options.scope } : sendOptions,
    );
  }
}

/** Opens a 2025-era session: `initialize`, the agreed revision checked, then `initialized`. */
export async function openLegacy(opening: Opening): Promise<EraSession> {
  const { connection, transport } = opening;
  const accepted = opening.accepted ?? SUPPORTED_PROTOCOL_VERSIONS;
  const offered =
    SUPPORTED_PROTOCOL_VERSIONS.filter((v) => accepted.includes(v)).at(-1) ??
    LATEST_PROTOCOL_VERSION;
  const raw = await connection.request(
    Initialize.method,
    {
      protocolVersion: offered,
      capabilities: opening.capabilities,
      clientInfo: opening.clientInfo,
    },
    { cancellable: false, ...openingRequestOptions(opening.options) },
  );
  const init = parseInitializeResult(raw);
  if (!accepted.includes(init.protocolVersion)) {
    throw new LocalError(
      'unsupported-version',
      `The server chose protocol version ${init.protocolVersion}, which this client does not accept`,
    );
  }
  const session = new LegacySession(init);
  opening.agreed(session);
  transport.setProtocolVersion?.(init.protocolVersion);
  await connection.notify(Initialized.method);
  return session;
}

/**
 * @module The 2024-11-05 HTTP+SSE transport, served beside Streamable HTTP so old clients work: a
 * GET opens the event stream, whose first event (`endpoint`) names the URL to POST messages to;
 * every server message is a `message` event on that stream. The session lives as long as the
 * stream (this transport has no resumption).
 */
import { decodeMessage } from '../../jsonrpc/decode.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { Identity, MessageInfo, Transport } from '../../jsonrpc/transport.js';
import type { JsonRpcMessage } from '../../jsonrpc/types.js';
import { readBody } from './body.js';
import { randomToken } from './httpSession.js';
import { failureResponse } from './httpStatus.js';
import { acceptsSse, isJsonContentType } from './requestGuards.js';
import type { ConnectSession, SessionHandle } from './sessionRegistry.js';
import { formatSseEvent, SSE_HEADERS } from './sse.js';

/** Where the legacy endpoints live. */
export interface LegacySseOptions {
  /** GET here opens the event stream. */
  ssePath: string;
  /** The `endpoint` event points here; clients POST messages to it. */
  messagesPath: string;
}

const encoder = new TextEncoder();

/** The server side of one legacy session: its transport writes to the GET stream. */
class LegacySseTransport implements Transport {
  onmessage?: (message: unknown, info?: MessageInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  ondecodeerror?: Transport['ondecodeerror'];
  private closed = false;

  constructor(
    readonly owner: string | undefined,
    private readonly controller: ReadableStreamDefaultController<Uint8Array>,
  ) {}

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    if (this.closed) throw new LocalError('closed', 'The SSE stream is closed');
    this.controller.enqueue(
      encoder.encode(formatSseEvent({ event: 'message', data: JSON.stringify(message) })),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      this.controller.close();
    } catch {
      // The client already went away.
    }
    this.onclose?.();
  }
}

/** The two legacy endpoints and their sessions. */
export class LegacySseEndpoints {
  private readonly sessions = new Map<
    string,
    { transport: LegacySseTransport; handle: SessionHandle }
  >();

  constructor(
    private readonly paths: LegacySseOptions,
    private readonly options: {
      connect: ConnectSession;
      maxBodyBytes: number;
      maxDepth: number;
      maxSessions: number;
      report: (error: unknown) => void;
    },
  ) {}

  /** True for a path these endpoints serve. */
  matches(pathname: string): boolean {
    return pathname === this.paths.ssePath || pathname === this.paths.messagesPath;
  }

  /** Serves a request to one of the legacy paths. */
  async handle(request: Request, url: URL, identity: Identity | undefined): Promise<Response> {
    if (url.pathname === this.paths.ssePath) {
      if (request.method !== 'GET')
        return failureResponse('methodNotAllowed', 'Open the event stream with GET', {
          allow: 'GET',
        });
      return this.open(request, identity);
    }
    if (request.method !== 'POST')
      return failureResponse('methodNotAllowed', 'POST messages here', { allow: 'POST' });
    return this.post(request, url, identity);
  }

  /** Ends every legacy session. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions.values()].map((s) => s.handle.close()));
    this.sessions.clear();
  }

  private async open(request: Request, identity: Identity | undefined): Promise<Response> {
    if (!acceptsSse(request.headers))
      return failureResponse('notAcceptable', 'Accept must list text/event-stream');
    if (this.sessions.size >= this.options.maxSessions)
      return failureResponse('tooManySessions', 'Too many sessions; try again later');
    const sessionId = randomToken(24);
    const endpoint = `${this.paths.messagesPath}?sessionId=${sessionId}`;
    let transport!: LegacySseTransport;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        // The endpoint event comes first, before any message.
        controller.enqueue(encoder.encode(formatSseEvent({ event: 'endpoint', data: endpoint })));
        transport = new LegacySseTransport(identity?.id, controller);
      },
      // The stream is the session: when the client goes, the session ends.
      cancel: () => void this.sessions.get(sessionId)?.handle.close(),
    });
    const handle = await this.options.connect(transport, {
      sessionId,
      ...(identity ? { identity } : {}),
    });
    // Wrap the connection's close handler (installed by connect) to forget the session too.
    const connectionClosed = transport.onclose;
    transport.onclose = () => {
      this.sessions.delete(sessionId);
      connectionClosed?.();
    };
    this.sessions.set(sessionId, { transport, handle });
    return new Response(stream, { status: 200, headers: SSE_HEADERS });
  }

  private async post(
    request: Request,
    url: URL,
    identity: Identity | undefined,
  ): Promise<Response> {
    const sessionId = url.searchParams.get('sessionId');
    if (!sessionId)
      return failureResponse('missingSession', 'The sessionId query parameter is required');
    const session = this.sessions.get(sessionId);
    if (!session || session.transport.owner !== identity?.id)
      return failureResponse('unknownSession', 'Session not found');
    if (!isJsonContentType(request.headers))
      return failureResponse('unsupportedMediaType', 'Content-Type must be application/json');
    const body = await readBody(request, this.options.maxBodyBytes);
    if (!body.ok)
      return failureResponse(
        body.reason === 'too-large' ? 'tooLarge' : 'parse',
        body.reason === 'too-large' ? 'The body is too large' : 'The body is not valid UTF-8',
      );
    const decoded = decodeMessage(body.text, this.options.maxDepth);
    if (!decoded.ok)
      return failureResponse(
        decoded.error.code === -32700 ? 'parse' : 'invalidMessage',
        decoded.error.message,
      );
    session.transport.onmessage?.(decoded.value, identity ? { identity } : {});
    return new Response('Accepted', { status: 202 });
  }
}

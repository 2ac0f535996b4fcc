/**
 * @module The console's HTTP interface, as a web-standard handler served on 127.0.0.1: the page
 * and its bundled assets, a JSON API over the {@link ConsoleSession} (state, calls, cancels,
 * confirmations, trust per server) and a server-sent event stream of every change. Every request
 * passes the {@link ConsoleGuard} first; every answer carries its security headers. Questions
 * (confirmations, a server's elicitation and sampling requests) are answered only with the key
 * the event stream that showed them was given.
 */
import type { ApprovalDecision } from '../../client.js';
import { SECURITY_HEADERS, type ConsoleGuard } from './consoleGuard.js';
import type { ConsoleEvent, ConsoleSession } from './consoleSession.js';

/** The page and its assets. */
export interface ConsoleAssets {
  readonly html: string;
  readonly files: ReadonlyMap<string, { type: string; body: string }>;
}

const DECISIONS = new Set<ApprovalDecision>(['allow-once', 'allow-always', 'deny']);
const MAX_BODY = 1024 * 1024;

function answer(
  status: number,
  body: string,
  headers: { type: string; extra?: Record<string, string> },
) {
  // A 204 may carry no body at all (the Response constructor throws on an empty one).
  return new Response(body === '' ? null : body, {
    status,
    headers: { ...SECURITY_HEADERS, 'content-type': headers.type, ...headers.extra },
  });
}

const json = (status: number, value: unknown) =>
  answer(status, JSON.stringify(value), { type: 'application/json; charset=utf-8' });

/** Reads a JSON object body, or says why it cannot. */
async function bodyOf(request: Request): Promise<Record<string, unknown> | Response> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > MAX_BODY) {
      await reader?.cancel();
      // The rest of the body is not read: the connection cannot carry another request.
      return answer(
        413,
        JSON.stringify({ error: `The request body is larger than ${MAX_BODY} bytes` }),
        {
          type: 'application/json; charset=utf-8',
          extra: { connection: 'close' },
        },
      );
    }
    chunks.push(next.value);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  return json(400, { error: 'The request body must be a JSON object' });
}

/** Everything the page shows, as it is now, with the keys of the questions for `stream`. */
function snapshot(session: ConsoleSession, keyOf: (question: string) => string) {
  return {
    servers: [...session.servers.values()].map((s) => s.summary(session.names)),
    model: session.modelName,
    waiting: session.waiting().map((w) => ({ ...w, key: keyOf(w.id) })),
    inputs: session.waitingInputs().map((i) => ({ ...i, key: keyOf(i.id) })),
    history: session.history,
  };
}

/** An event as one stream is sent it: a question with the key to answer it from that stream. */
function keyed(
  event: ConsoleEvent,
  keyOf: (question: string) => string,
): ConsoleEvent | (ConsoleEvent & { key: string }) {
  return event.type === 'confirm' || event.type === 'input'
    ? { ...event, key: keyOf(event.id) }
    : event;
}

/**
 * The server-sent events of the session: a `state` event with the whole state (and this stream's
 * id), then every change, with a keep-alive comment.
 */
function events(session: ConsoleSession, guard: ConsoleGuard, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const opened = guard.openStream();
  const keyOf = (question: string): string => guard.answerKey(opened.id, question);
  let stop = (): void => opened.close();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      // The state first, then every change: nothing falls between the two (a page that read the
      // state and then subscribed could miss a server connecting in between).
      const state = { type: 'state', stream: opened.id, ...snapshot(session, keyOf) };
      send(`data: ${JSON.stringify(state)}\n\n`);
      const unsubscribe = session.subscribe((event) =>
        send(`data: ${JSON.stringify(keyed(event, keyOf))}\n\n`),
      );
      const keepAlive = setInterval(() => send(': keep-alive\n\n'), 15_000);
      stop = () => {
        opened.close();
        unsubscribe();
        clearInterval(keepAlive);
      };
      // The page went away, or the console is closing (its listener waits for every stream).
      const end = (): void => {
        stop();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      const ended = AbortSignal.any([signal, session.closing]);
      if (ended.aborted) end();
      else ended.addEventListener('abort', end, { once: true });
      send(': connected\n\n');
    },
    cancel: () => stop(),
  });
  return new Response(stream, {
    headers: {
      ...SECURITY_HEADERS,
      'content-type': 'text/event-stream',
      'x-accel-buffering': 'no',
    },
  });
}

const NOT_SHOWN = 'This question can be answered only from the page that shows it';

/** An answer without the proof that came with it (the stream and its key). */
function withoutProof(body: Record<string, unknown>): Record<string, unknown> {
  const answer = { ...body };
  delete answer['stream'];
  delete answer['key'];
  return answer;
}

/** The console's handler. */
export function consoleHandler(
  session: ConsoleSession,
  guard: ConsoleGuard,
  assets: ConsoleAssets,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const verdict = guard.check(request);
    if (verdict.kind === 'refused')
      return answer(verdict.status, `${verdict.message}\n`, { type: 'text/plain' });
    const { pathname } = new URL(request.url);
    const method = request.method;
    // Browsers ask for it on their own; there is none.
    if (method === 'GET' && pathname === '/favicon.ico')
      return answer(204, '', { type: 'text/plain' });
    if (verdict.kind === 'public') {
      if (method === 'GET' && pathname === '/')
        return answer(200, assets.html, { type: 'text/html; charset=utf-8' });
      const file = method === 'GET' ? assets.files.get(pathname) : undefined;
      if (file) return answer(200, file.body, { type: file.type });
      return answer(404, `No ${method} ${pathname}\n`, { type: 'text/plain' });
    }
    const body = method === 'POST' ? await bodyOf(request) : {};
    if (body instanceof Response) return body;
    // The one-time token of the printed link, traded for this page's session.
    if (verdict.kind === 'sign-in') {
      const session = typeof body['token'] === 'string' ? guard.signIn(body['token']) : undefined;
      return session === undefined
        ? json(401, { error: 'This sign-in link is not valid, or was used already' })
        : json(200, { session });
    }
    if (method === 'GET' && pathname === '/api/state')
      return json(
        200,
        snapshot(session, () => ''),
      );
    if (method === 'GET' && pathname === '/api/events')
      return events(session, guard, request.signal);
    if (method !== 'POST') return json(404, { error: `No ${method} ${pathname}` });
    // A one-time sign-in link for another browser, asked for by a signed-in page.
    if (pathname === '/api/links') {
      const host = request.headers.get('host') ?? '';
      return json(200, { url: `http://${host}/#token=${guard.issue()}` });
    }
    let m = /^\/api\/servers\/([\w-]+)\/calls$/.exec(pathname);
    if (m) {
      const server = session.servers.get(m[1]!);
      const args = body['arguments'] ?? {};
      if (!server || typeof body['tool'] !== 'string')
        return json(400, { error: 'Give a known server and a tool name' });
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return json(400, { error: 'arguments must be a JSON object' });
      if (!server.client)
        return json(409, { error: `${server.target} is not connected (${server.state})` });
      return json(202, {
        call: session.call(server.id, {
          tool: body['tool'],
          arguments: args as Record<string, unknown>,
          task: body['task'] === true,
        }),
      });
    }
    m = /^\/api\/servers\/([\w-]+)\/trust$/.exec(pathname);
    if (m) {
      const wanted = body['trustAnnotations'];
      if (typeof wanted !== 'boolean')
        return json(400, { error: 'Give trustAnnotations: true or false' });
      const trusted = await session.setTrust(m[1]!, wanted);
      if (trusted === 'unknown') return json(404, { error: 'No such server' });
      if (trusted === 'fixed')
        return json(409, { error: 'This server is trusted in config.json: change it there' });
      return json(200, { trustAnnotations: trusted });
    }
    // Connect again (after a failure), or stop connecting / signing in.
    m = /^\/api\/servers\/([\w-]+)\/(connect|cancel)$/.exec(pathname);
    if (m) {
      const server = session.servers.get(m[1]!);
      if (!server) return json(404, { error: 'No such server' });
      if (m[2] === 'cancel')
        return server.cancel() ? json(200, {}) : json(409, { error: 'Nothing to cancel' });
      if (server.state !== 'failed')
        return json(409, { error: `${server.target} is ${server.state}` });
      void server.connect();
      return json(202, {});
    }
    m = /^\/api\/calls\/([\w-]+)\/cancel$/.exec(pathname);
    if (m)
      return session.cancel(m[1]!) ? json(200, {}) : json(404, { error: 'No such running call' });
    // A draft reply to a sampling request from the configured model command.
    m = /^\/api\/inputs\/([\w-]+)\/draft$/.exec(pathname);
    if (m) {
      if (!session.model) return json(409, { error: 'No model command is configured' });
      if (!guard.mayAnswer(m[1]!, body)) return json(403, { error: NOT_SHOWN });
      try {
        const draft = await session.draftReply(m[1]!);
        if (draft === 'busy')
          return json(409, { error: 'A draft of this request is already being written' });
        return draft === undefined
          ? json(404, { error: 'No such sampling request is waiting' })
          : json(200, draft);
      } catch (error) {
        return json(502, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    m = /^\/api\/inputs\/([\w-]+)$/.exec(pathname);
    if (m) {
      if (!guard.mayAnswer(m[1]!, body)) return json(403, { error: NOT_SHOWN });
      const answered = session.answerInput(m[1]!, withoutProof(body));
      if (answered === 'invalid')
        return json(400, { error: 'An elicitation answer is { action, content? }' });
      return answered ? json(200, {}) : json(404, { error: 'No such request is waiting' });
    }
    m = /^\/api\/confirmations\/([\w-]+)$/.exec(pathname);
    if (m) {
      const decision = body['decision'] as ApprovalDecision;
      if (!DECISIONS.has(decision))
        return json(400, { error: 'decision must be allow-once, allow-always or deny' });
      if (!guard.mayAnswer(m[1]!, body)) return json(403, { error: NOT_SHOWN });
      return session.decide(m[1]!, decision)
        ? json(200, {})
        : json(404, { error: 'No such confirmation is waiting' });
    }
    return json(404, { error: `No ${method} ${pathname}` });
  };
}

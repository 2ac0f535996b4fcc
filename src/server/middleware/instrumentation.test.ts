// The server's instrumentation beyond middleware: a middleware's `instrumentation` is installed by
// `server.use()` for the sessions connected afterwards, and observes what no middleware sees
// (initialize, notifications both ways, the server's requests to the client, the session's end);
// several compose, the first used outermost. Without one, a session's connection has no hook.
import { describe, expect, it } from 'vitest';
import { connect } from '../../../test/support/harness.js';
import type { ConnectionOptions } from '../../jsonrpc/connection.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import type {
  ServerInstrumentation,
  ServerSessionView,
  SessionObserver,
} from './instrumentation.js';
import { McpServer } from '../mcpServer.js';
import type { Middleware } from './middleware.js';
import type { ServerSession } from '../serverSession.js';

/** An instrumentation writing what it sees to `log`, each line prefixed with `name`. */
function recorder(name: string, log: string[], views: ServerSessionView[] = []) {
  const instrumentation: ServerInstrumentation = {
    session(view) {
      views.push(view);
      const observer: SessionObserver = {
        incomingRequest: async (request, handle) => {
          log.push(`${name} in ${request.method} v=${view.protocolVersion ?? '-'}`);
          const result = await handle();
          log.push(`${name} answered ${request.method} v=${view.protocolVersion ?? '-'}`);
          return result;
        },
        incomingNotification: (notification, _info, handle) => {
          log.push(`${name} heard ${notification.method}`);
          handle();
        },
        outgoingRequest: (request, send) => {
          log.push(`${name} asks ${request.method}`);
          return send({ ...request.params, _meta: { [name]: true } });
        },
        outgoingNotification: (notification, send) => {
          log.push(`${name} tells ${notification.method}`);
          return send(notification.params);
        },
        ended: (outcome) => log.push(`${name} ended ${'error' in outcome ? 'error' : 'ok'}`),
      };
      return observer;
    },
  };
  const middleware: Middleware = Object.assign(
    (_request: unknown, next: () => Promise<JsonObject>) => next(),
    { instrumentation },
  );
  return middleware;
}

function serverWith(...middleware: Middleware[]) {
  const server = new McpServer({ name: 'observed', version: '1' }, { onerror: () => {} });
  for (const m of middleware) server.use(m);
  server.registerTool('roots', {}, async (_args, ctx) => {
    ctx.log.info('listing roots');
    const listed = await ctx.listRoots();
    return String(listed.roots.length);
  });
  return server;
}

/** The options of a session's connection (white box: what its message path consults). */
function connectionOptions(session: ServerSession): ConnectionOptions {
  return (session.connection as unknown as { options: ConnectionOptions }).options;
}

const client = { handlers: { roots: () => [{ uri: 'file:///a' }] } };

describe('Middleware.instrumentation', () => {
  it('observes initialize, notifications both ways, the server’s requests and the end', async () => {
    const log: string[] = [];
    const views: ServerSessionView[] = [];
    const { client: c, session } = await connect(serverWith(recorder('A', log, views)), {
      client,
    });
    await c.setLoggingLevel('info');
    expect(await c.callTool('roots')).toMatchObject({ content: [{ text: '1' }] });
    await c.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual([
      // Served without middleware, before the revision is agreed; it is known once answered.
      'A in initialize v=-',
      'A answered initialize v=2025-11-25',
      'A heard notifications/initialized',
      // logging/setLevel, tools/list and tools/call go through middleware: not seen here.
      'A tells notifications/message',
      'A asks roots/list',
      'A ended ok',
    ]);
    expect(views).toEqual([session]);
    expect(views[0]).toMatchObject({ networkTransport: 'inproc', transient: false });
  });

  it('composes several, the first used outermost', async () => {
    const log: string[] = [];
    const { client: c } = await connect(serverWith(recorder('A', log), recorder('B', log)), {
      client,
    });
    await c.callTool('roots');
    expect(log.slice(0, 6)).toEqual([
      'A in initialize v=-',
      'B in initialize v=-',
      'B answered initialize v=2025-11-25',
      'A answered initialize v=2025-11-25',
      'A heard notifications/initialized',
      'B heard notifications/initialized',
    ]);
    expect(log).toContain('A asks roots/list');
    expect(log).toContain('B asks roots/list');
  });

  it('composes only the hooks some of them have', async () => {
    const ends: string[] = [];
    const endsOnly = (name: string): Middleware =>
      Object.assign((_r: unknown, next: () => Promise<JsonObject>) => next(), {
        instrumentation: { session: () => ({ ended: () => ends.push(name) }) },
      });
    const { session } = await connect(serverWith(endsOnly('A'), endsOnly('B')));
    const options = connectionOptions(session);
    for (const hook of ['interceptRequest', 'interceptNotification', 'observeNotification'])
      expect(options).not.toHaveProperty(hook);
    await session.close();
    expect(ends).toEqual(['A', 'B']);
  });

  it('hands the server’s requests on with the params each hook gave', async () => {
    const seen: unknown[] = [];
    const { client: c } = await connect(serverWith(recorder('A', []), recorder('B', [])), {
      client: {
        handlers: {
          roots: (context) => {
            seen.push(context.meta);
            return [];
          },
        },
      },
    });
    await c.callTool('roots');
    expect(seen).toEqual([{ B: true }]); // B wraps inside A: its params are the ones sent
  });

  it('leaves sessions alone without it: no hook on their connections', async () => {
    const plain: Middleware = (_request, next) => next();
    const { session } = await connect(serverWith(plain));
    const options = connectionOptions(session);
    for (const hook of ['interceptRequest', 'interceptNotification', 'observeNotification'])
      expect(options).not.toHaveProperty(hook);
    const observed = await connect(serverWith(recorder('A', [])));
    expect(typeof connectionOptions(observed.session).interceptNotification).toBe('function');
  });

  it('applies to sessions connected after use(); one that throws is reported, not fatal', async () => {
    const log: string[] = [];
    const faults: string[] = [];
    const server = new McpServer(
      { name: 'late', version: '1' },
      { onerror: (_error, what) => faults.push(what) },
    );
    server.registerTool('ok', {}, () => 'ok');
    const before = await connect(server);
    server.use(recorder('A', log));
    const broken: Middleware = Object.assign(
      (_r: unknown, next: () => Promise<JsonObject>) => next(),
      {
        instrumentation: {
          session: () => {
            throw new Error('no');
          },
        },
      },
    );
    server.use(broken);
    await before.client.callTool('ok');
    expect(log).toEqual([]);
    const after = await connect(server);
    await after.client.callTool('ok');
    expect(log).toContain('A in initialize v=-');
    expect(faults).toEqual(['instrumentation']);
  });
});

/**
 * Issue 10, HTTP: the Node adapter wrote each reply in a promise callback with nothing to catch
 * what `writeHead` throws. A reply Node refuses to write (an `authenticate` refusal whose header
 * value holds a line break, say) became an unhandled rejection, which ends a Node process: one
 * request took the server down. `handler.fetch`, documented never to throw, rejected on the same
 * reply. Such a request now gets a 500, `onerror` says why, and the server keeps serving.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../../src/http.js';
import { serveHttp, type HttpListener } from '../../src/node.js';
import { McpServer } from '../../src/server.js';
import { initializeMessage } from '../support/httpHarness.js';

let listener: HttpListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe('a reply Node refuses to write', () => {
  it('is answered 500 and reported; the server keeps serving', async () => {
    const errors: unknown[] = [];
    const handler = createHttpHandler(new McpServer({ name: 'bad-header', version: '1' }), {
      onerror: (error) => errors.push(error),
      authenticate: (request) =>
        request.header('authorization') === 'Bearer good'
          ? { id: 'good' }
          : { status: 401, headers: { 'www-authenticate': 'Bearer realm="x"\nInjected: yes' } },
    });
    listener = await serveHttp(handler);
    const { url } = listener;
    const post = (authorization: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initializeMessage()),
      });
    const refused = await post('Bearer bad');
    expect(refused.status).toBe(500);
    expect(refused.headers.get('injected')).toBeNull();
    expect(String(errors[0])).toMatch(/reply could not be written .*www-authenticate.*500/);
    const served = await post('Bearer good');
    expect(served.status).toBe(200);
    expect(served.headers.get('mcp-session-id')).toMatch(/^[0-9a-f]{48}$/);
  });

  it('is answered 500 and reported by the web-standard entry too, which never throws', async () => {
    const errors: unknown[] = [];
    const handler = createHttpHandler(new McpServer({ name: 'bad-header', version: '1' }), {
      onerror: (error) => errors.push(error),
      authenticate: () => ({
        status: 401,
        headers: { 'www-authenticate': 'Bearer\nInjected: yes' },
      }),
    });
    const response = await handler.fetch(
      new Request('http://127.0.0.1:3000/mcp', {
        method: 'POST',
        headers: {
          host: '127.0.0.1:3000',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initializeMessage()),
      }),
    );
    expect(response.status).toBe(500);
    expect(String(errors[0])).toMatch(/reply could not be written [\s\S]*500/);
  });
});

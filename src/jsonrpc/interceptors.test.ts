// The connection's notification hooks: an interceptor around every notification sent (the
// cancellation the connection sends itself included) that may extend its params, an observer
// around every notification received (progress and cancellation included) that must run the
// handling; and the scope a request hands its interceptor.
import { describe, expect, it } from 'vitest';
import { ScriptedTransport } from '../../test/support/scriptedTransport.js';
import { Connection, type ConnectionOptions } from './connection.js';
import { LocalError } from './errors.js';
import type { OutgoingRequest } from './interceptors.js';
import type { JsonObject } from './types.js';

async function hooked(options: ConnectionOptions) {
  const transport = new ScriptedTransport();
  const notified: Array<{ method: string; params: unknown }> = [];
  const connection = new Connection(
    transport,
    {
      request: () => ({}),
      notification: (n) => notified.push({ method: n.method, params: n.params }),
    },
    options,
  );
  await connection.start();
  return { transport, connection, notified };
}

describe('Connection: interceptNotification', () => {
  it('wraps every notification sent, with the params it gives, the connection’s own cancellations too', async () => {
    const seen: string[] = [];
    const { transport, connection } = await hooked({
      interceptNotification: async (notification, send) => {
        seen.push(notification.method);
        await send({ ...notification.params, _meta: { traceparent: 'tp' } });
        seen.push(`${notification.method} sent`);
      },
    });
    await connection.notify('notifications/initialized');
    expect(await transport.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/initialized',
      params: { _meta: { traceparent: 'tp' } },
    });
    const controller = new AbortController();
    const pending = connection.request('slow', {}, { signal: controller.signal });
    await transport.next(); // the request
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect(await transport.next()).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: 1, _meta: { traceparent: 'tp' } },
    });
    expect(seen).toEqual([
      'notifications/initialized',
      'notifications/initialized sent',
      'notifications/cancelled',
      'notifications/cancelled sent',
    ]);
  });

  it('passes a failed send through the hook', async () => {
    const failures: unknown[] = [];
    const { transport, connection } = await hooked({
      interceptNotification: (notification, send) =>
        send(notification.params).catch((error: unknown) => {
          failures.push(error);
          throw error;
        }),
    });
    transport.closed = true; // send() now throws, the connection still thinks it is open
    await expect(connection.notify('notifications/message', { level: 'info' })).rejects.toThrow(
      'closed',
    );
    expect(failures).toHaveLength(1);
    await connection.close();
    await expect(connection.notify('notifications/message')).rejects.toBeInstanceOf(LocalError);
    expect(failures).toHaveLength(1); // a closed connection does not reach the hook
  });
});

describe('Connection: observeNotification', () => {
  it('wraps the handling of every notification received, progress and cancellation included', async () => {
    const order: string[] = [];
    const { transport, connection, notified } = await hooked({
      observeNotification: (notification, info, handle) => {
        order.push(`before ${notification.method}`);
        handle();
        order.push(`after ${notification.method}`);
      },
    });
    const progress: number[] = [];
    void connection.request('work', {}, { onprogress: (p) => progress.push(p.progress) });
    await transport.next();
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 5 },
    });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    transport.inject({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 9 },
    });
    expect(progress).toEqual([5]);
    expect(notified.map((n) => n.method)).toEqual(['notifications/tools/list_changed']);
    expect(order).toEqual([
      'before notifications/progress',
      'after notifications/progress',
      'before notifications/tools/list_changed',
      'after notifications/tools/list_changed',
      'before notifications/cancelled',
      'after notifications/cancelled',
    ]);
  });

  it('reports an observer that throws, and goes on serving', async () => {
    const faults: Error[] = [];
    const { transport, connection, notified } = await hooked({
      onerror: (error) => faults.push(error),
      observeNotification: (_n, _info, handle) => {
        handle();
        throw new Error('observer broke');
      },
    });
    transport.inject({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    expect(notified).toHaveLength(1);
    expect(faults.map((f) => f.message)).toEqual(['observer broke']);
    void connection.request('still', {});
    expect(await transport.next()).toMatchObject({ method: 'still' });
  });
});

describe('Connection: RequestOptions.scope', () => {
  it('is handed to the interceptor with the request, and only when given', async () => {
    const seen: OutgoingRequest[] = [];
    const { transport, connection } = await hooked({
      interceptRequest: (request, send) => {
        seen.push(request);
        return send(request.params);
      },
    });
    const scope = { call: 'one' };
    const answered = (id: number, result: JsonObject) =>
      transport.inject({ jsonrpc: '2.0', id, result });
    const first = connection.request('tools/call', { name: 'a' }, { scope });
    await transport.next();
    answered(1, {});
    const second = connection.request('tools/list', {});
    await transport.next();
    answered(2, {});
    await Promise.all([first, second]);
    expect(seen[0]).toEqual({ id: 1, method: 'tools/call', params: { name: 'a' }, scope });
    expect(seen[1]).not.toHaveProperty('scope');
  });
});

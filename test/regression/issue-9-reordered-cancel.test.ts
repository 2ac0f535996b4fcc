/**
 * Issue 9: a `notifications/cancelled` that arrives before its request (reordered, as separate
 * HTTP POSTs can be) did not cancel it. Recent cancellations of ids not yet seen are remembered
 * for a short, bounded time and applied when the request arrives.
 */
import { describe, expect, it } from 'vitest';
import { Connection } from '../../src/jsonrpc/connection.js';
import { EarlyCancels } from '../../src/jsonrpc/earlyCancels.js';
import { ScriptedTransport } from '../support/scriptedTransport.js';

async function served() {
  const transport = new ScriptedTransport();
  const ran: string[] = [];
  const connection = new Connection(transport, {
    request: (request) => {
      ran.push(`${request.method}#${String(request.id)}`);
      return { ok: true };
    },
    notification: () => {},
  });
  await connection.start();
  return { transport, ran };
}

const cancel = (requestId: number | string) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, reason: 'user' },
});

describe('a cancellation that overtakes its request', () => {
  it('keeps the request from running, and sends no response', async () => {
    const { transport, ran } = await served();
    transport.inject(cancel(7));
    transport.inject({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });
    transport.inject({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'x' } });
    expect(ran).toEqual(['tools/call#8']);
    expect(await transport.next()).toMatchObject({ id: 8, result: { ok: true } });
    expect(await transport.quiet(30)).toEqual([]);
  });

  it('never cancels initialize, which the lifecycle forbids cancelling', async () => {
    const { transport, ran } = await served();
    transport.inject(cancel('init'));
    transport.inject({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: {} });
    expect(ran).toEqual(['initialize#init']);
  });
});

describe('EarlyCancels', () => {
  it('forgets a cancellation after its time, and the oldest beyond its count', () => {
    let now = 0;
    const early = new EarlyCancels({ keepMs: 100, max: 3 }, () => now);
    early.remember(1);
    now = 101;
    expect(early.take(1)).toBe(false);
    for (const id of [2, 3, 4, 5]) early.remember(id);
    expect(early.size).toBe(3);
    expect(early.take(2)).toBe(false); // evicted: the oldest of four
    expect(early.take(5)).toBe(true);
    expect(early.take(5)).toBe(false); // applied once
  });

  it('stays bounded under a flood of cancellations for ids never sent', () => {
    const early = new EarlyCancels();
    for (let i = 0; i < 100_000; i++) early.remember(i);
    expect(early.size).toBe(256);
  });
});

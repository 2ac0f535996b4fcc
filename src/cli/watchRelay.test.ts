import { describe, expect, it } from 'vitest';
import { StdioRelay } from './watchRelay.js';

const line = (value: unknown) => JSON.stringify(value);

function relay() {
  const toClient: unknown[] = [];
  const logs: string[] = [];
  const r = new StdioRelay({
    toClient: (l) => toClient.push(JSON.parse(l)),
    log: (m) => logs.push(m),
  });
  let toServer: unknown[] = [];
  const start = () => {
    toServer = [];
    r.serverStarted((l) => toServer.push(JSON.parse(l)));
  };
  return { r, toClient, logs, start, toServer: () => toServer };
}

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25' },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const setLevel = { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } };

describe('StdioRelay (serve --watch over stdio)', () => {
  it('passes lines both ways, then carries the session over to a new process', () => {
    const { r, toClient, logs, start, toServer } = relay();
    start();
    r.fromClient(line(initialize));
    r.fromServer(
      line({ jsonrpc: '2.0', id: 0, result: { capabilities: { tools: { listChanged: true } } } }),
    );
    r.fromClient(line(initialized));
    r.fromClient(line(setLevel));
    r.fromServer(line({ jsonrpc: '2.0', id: 1, result: {} }));
    r.fromClient(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } }));
    expect(toServer()).toHaveLength(4);
    expect(toClient).toHaveLength(2);

    // The process goes away with tools/call 2 unanswered; the client's next line waits.
    r.serverGone();
    expect(toClient[2]).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32603, message: 'The server restarted before answering (serve --watch)' },
    });
    r.fromClient(line({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    start();
    const [init, note, level, waited] = toServer() as Array<Record<string, unknown>>;
    expect(init).toMatchObject({ method: 'initialize', params: initialize.params });
    expect(init?.['id']).toMatch(/^toolwire-watch-replay-/);
    expect(note).toEqual(initialized);
    expect(level).toMatchObject({ method: 'logging/setLevel' });
    expect(waited).toEqual({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    // The client hears that the tools may have changed, not the replayed answers.
    expect(toClient[3]).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    r.fromServer(line({ jsonrpc: '2.0', id: init?.['id'], result: {} }));
    r.fromServer(
      line({ jsonrpc: '2.0', id: level?.['id'], error: { code: -32601, message: 'no' } }),
    );
    r.fromServer(line({ jsonrpc: '2.0', id: 3, result: { tools: [] } }));
    expect(toClient.slice(4)).toEqual([{ jsonrpc: '2.0', id: 3, result: { tools: [] } }]);
    expect(logs).toHaveLength(1); // the refused replay is reported on stderr
  });

  it('answers requests at once while no process runs, and stays quiet about notifications', () => {
    const { r, toClient, start, toServer } = relay();
    start();
    r.serverGone();
    r.serverDown();
    r.fromClient(line({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }));
    r.fromClient(line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }));
    expect(toClient).toEqual([
      {
        jsonrpc: '2.0',
        id: 'a',
        error: {
          code: -32603,
          message:
            'The server is not running: it restarts when a watched file changes (serve --watch)',
        },
      },
    ]);
    start();
    r.fromClient(line({ jsonrpc: '2.0', id: 'b', method: 'ping' }));
    expect(toServer()).toEqual([{ jsonrpc: '2.0', id: 'b', method: 'ping' }]);
  });

  it('does not announce a change to a client whose server never declared listChanged', () => {
    const { r, toClient, start } = relay();
    start();
    r.fromClient(line(initialize));
    r.fromServer(line({ jsonrpc: '2.0', id: 0, result: { capabilities: { tools: {} } } }));
    r.serverGone();
    start();
    expect(toClient).toHaveLength(1);
  });
});

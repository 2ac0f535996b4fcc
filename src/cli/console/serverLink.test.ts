import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../../test/support/fakeServer.js';
import { McpClient, ServerToolNames } from '../../client.js';
import type { Tool } from '../../protocol/types.js';
import { createLinkedPair } from '../../transports/memory.js';
import { ServerLink, type ServerConnector } from './serverLink.js';

const echo: Tool = { name: 'echo', inputSchema: { type: 'object' } };

/** A link through `connector`, and the states it went through. */
function linkTo(connector: ServerConnector) {
  const states: string[] = [];
  const link = new ServerLink({ id: 's1', target: 'test', name: 'test' }, connector, {
    newClient: (l) => {
      const client: McpClient = new McpClient(
        { name: 'c', version: '1' },
        { protocolEra: 'legacy', onclose: () => l.ended(client) },
      );
      return client;
    },
    changed: (l) => states.push(l.error ? `${l.state}: ${l.error}` : l.state),
  });
  return { link, states, connect: () => link.connect() };
}

describe('ServerLink', () => {
  it('connects, lists the tools, turns failed when the server goes away, and reconnects', async () => {
    const fakes = [fakeServer([echo]), fakeServer([echo, { ...echo, name: 'other' }])];
    let next = 0;
    const { link, states, connect } = linkTo({ transport: () => fakes[next++]!.clientTransport });
    expect(await connect()).toBe(true);
    expect(link.state).toBe('connected');
    expect(link.tools.map((t) => t.name)).toEqual(['echo']);
    expect(await connect()).toBe(false); // connected already
    await fakes[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(link.state).toBe('failed');
    expect(link.error).toBe('The connection ended');
    expect(link.client).toBeUndefined();
    expect(link.tools).toEqual([]);
    expect(await connect()).toBe(true);
    expect(link.summary(new ServerToolNames())).toMatchObject({
      state: 'connected',
      tools: [{ name: 'echo' }, {}],
    });
    expect(states).toEqual([
      'connecting',
      'connected',
      'failed: The connection ended',
      'connecting',
      'connected',
    ]);
    await link.close();
  });

  it('says why an attempt failed, and stops one that hangs when cancelled', async () => {
    const failing = linkTo({
      transport: () => {
        throw new Error('spawn nothing-here ENOENT');
      },
    });
    await failing.connect();
    expect(failing.link.summary(new ServerToolNames())).toMatchObject({
      state: 'failed',
      error: 'spawn nothing-here ENOENT',
    });
    expect(failing.link.cancel()).toBe(false); // nothing runs

    // A server that never answers `initialize`.
    const hanging = linkTo({ transport: () => createLinkedPair()[0] });
    const attempt = hanging.connect();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(hanging.link.state).toBe('connecting');
    expect(hanging.link.cancel()).toBe(true);
    await attempt;
    expect(hanging.link.summary(new ServerToolNames())).toMatchObject({
      state: 'failed',
      error: 'Cancelled from the console',
    });
  });

  it('says why, when the transport can tell more than the client', async () => {
    const failing = linkTo({
      transport: () => {
        throw new Error('Connection closed');
      },
      explain: async () => 'The server exited with code 1: Error: no such module',
    });
    await failing.connect();
    expect(failing.link.error).toBe('The server exited with code 1: Error: no such module');

    const fake = fakeServer([echo]);
    const ending = linkTo({
      transport: () => fake.clientTransport,
      explain: async () => 'The server was ended by SIGKILL',
    });
    await ending.connect();
    await fake.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ending.link.error).toBe('The connection ended: The server was ended by SIGKILL');
    expect(ending.states.slice(-2)).toEqual([
      'failed: The connection ended',
      'failed: The connection ended: The server was ended by SIGKILL',
    ]);
  });

  it('asks why before closing the attempt (a close would end the server, hiding its exit)', async () => {
    let closedByTheConsole = false;
    const states: string[] = [];
    const connector: ServerConnector = {
      transport: () => {
        const [client, server] = createLinkedPair();
        // The server goes away on its own while the client waits for `initialize`.
        setTimeout(() => void server.close(), 10);
        return client;
      },
      explain: async () => (closedByTheConsole ? undefined : 'The server exited with code 3'),
    };
    const link = new ServerLink({ id: 's1', target: 'test', name: 'test' }, connector, {
      newClient: () => {
        const client = new McpClient({ name: 'c', version: '1' }, { protocolEra: 'legacy' });
        const close = client.close.bind(client);
        client.close = async () => {
          closedByTheConsole = true;
          await close();
        };
        return client;
      },
      changed: (l) => states.push(l.error ? `${l.state}: ${l.error}` : l.state),
    });
    await link.connect();
    expect(link.error).toBe('The server exited with code 3');
    expect(states).toEqual(['connecting', 'failed: The server exited with code 3']);
  });
});

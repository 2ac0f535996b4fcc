import { describe, expect, it } from 'vitest';
import type { Connection } from '../../jsonrpc/connection.js';
import type { Transport } from '../../jsonrpc/transport.js';
import type { JsonObject } from '../../jsonrpc/types.js';
import { Discover, GetTask, Initialize, Initialized } from '../../protocol/methods.js';
import type { ProtocolEra } from '../clientOptions.js';
import type { EraSession } from './eraSession.js';
import { openSession } from './negotiate.js';

/** A connection that answers the opening request and records what was sent, in order. */
function opening(era: ProtocolEra | undefined, answer: JsonObject) {
  const sent: string[] = [];
  const connection = {
    request: (method: string) => {
      sent.push(method);
      return Promise.resolve(answer);
    },
    notify: (method: string) => {
      sent.push(method);
      return Promise.resolve();
    },
  } as unknown as Connection;
  const transport = {
    setProtocolVersion: () => sent.push('setProtocolVersion'),
  } as unknown as Transport;
  return {
    sent,
    open: () =>
      openSession(era, {
        connection,
        transport,
        clientInfo: { name: 'c', version: '1' },
        capabilities: {},
        accepted: undefined,
        options: {},
        input: { handlers: {}, elicitationModes: ['form'], report: () => {} },
        report: () => {},
        cache: undefined,
        listen: false,
        tasksExtension: true,
        missedChanges: () => {},
        watchTask: () => () => {},
        logLevel: undefined,
        agreed: (session: EraSession) => sent.push(`agreed ${session.server.protocolVersion}`),
      }),
  };
}

const initialized = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 's', version: '1' },
};

describe('negotiate', () => {
  it('probes with server/discover by default (auto), falling back to initialize on any other answer', async () => {
    const { sent, open } = opening(undefined, initialized);
    const session = await open();
    expect(sent).toEqual([
      'setProtocolVersion',
      Discover.method,
      'setProtocolVersion',
      Initialize.method,
      'agreed 2025-06-18',
      'setProtocolVersion',
      Initialized.method,
    ]);
    expect(session.server.protocolVersion).toBe('2025-06-18');
  });

  it('opens the legacy handshake for legacy (and a value the types do not allow), agreeing before initialized is sent', async () => {
    const eras: (ProtocolEra | undefined)[] = ['legacy', 'other' as ProtocolEra];
    for (const era of eras) {
      const { sent, open } = opening(era, initialized);
      const session = await open();
      expect(sent).toEqual([
        Initialize.method,
        'agreed 2025-06-18',
        'setProtocolVersion',
        Initialized.method,
      ]);
      expect(session.trustsCompleteListing).toBe(true);
      expect(session.unspoken(GetTask.method)).toBeUndefined();
      expect(session.schemaDialect).toBe('draft-07');
    }
  });

  it('opens the modern session with server/discover, which speaks tools only', async () => {
    const { sent, open } = opening('modern', {
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: { listChanged: true } },
    });
    const session = await open();
    expect(sent).toEqual(['setProtocolVersion', Discover.method, 'agreed 2026-07-28']);
    expect(session.trustsCompleteListing).toBe(false);
    expect(session.unspoken(GetTask.method)).toMatchObject({ code: 'unsupported-version' });
    expect(() => session.taskCallsOffered(true)).toThrow(/Tasks are not part/);
  });
});

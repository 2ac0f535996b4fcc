import { describe, expect, it } from 'vitest';
import { RpcError } from '../../../jsonrpc/errors.js';
import { validateDefinition } from '../../../../test/support/specSchemas.js';
import { readRequestMeta } from './requestMetaCheck.js';

const MODERN = ['2026-07-28'] as const;
const SERVED = ['2026-07-28', '2025-11-25', '2025-06-18'];
const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

function refusal(meta: unknown): RpcError {
  try {
    readRequestMeta({ _meta: meta }, MODERN, SERVED);
  } catch (error) {
    if (error instanceof RpcError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('readRequestMeta', () => {
  it('reads the revision, capabilities, client info, log level and progress token', () => {
    const meta = readRequestMeta(
      {
        _meta: {
          [VERSION]: '2026-07-28',
          [CAPS]: { elicitation: {} },
          'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
          'io.modelcontextprotocol/logLevel': 'warning',
          progressToken: 7,
        },
      },
      MODERN,
      SERVED,
    );
    expect(meta).toEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'c', version: '1' },
      logLevel: 'warning',
      progressToken: 7,
    });
  });

  it('answers a missing or ill-typed required field with -32602', () => {
    const cases: unknown[] = [
      undefined,
      'text',
      {},
      { [VERSION]: '2026-07-28' },
      { [CAPS]: {} },
      { [VERSION]: 20260728, [CAPS]: {} },
      { [VERSION]: '2026-07-28', [CAPS]: [] },
      { [VERSION]: '2026-07-28', [CAPS]: {}, 'io.modelcontextprotocol/clientInfo': 'me' },
      { [VERSION]: '2026-07-28', [CAPS]: {}, 'io.modelcontextprotocol/logLevel': 'loud' },
      { [VERSION]: '2026-07-28', [CAPS]: {}, progressToken: { id: 1 } },
    ];
    for (const meta of cases) expect(refusal(meta).code, JSON.stringify(meta)).toBe(-32602);
    expect(() => readRequestMeta(undefined, MODERN, SERVED)).toThrow(/_meta/);
  });

  it('answers a revision it does not serve with -32022 naming the ones it does', () => {
    for (const requested of ['1900-01-01', '2025-11-25', '2026-07-29']) {
      const error = refusal({ [VERSION]: requested, [CAPS]: {} });
      expect(error.code).toBe(-32022);
      expect(error.data).toEqual({ supported: SERVED, requested });
      const wire = { jsonrpc: '2.0', id: 1, error: error.toJSON() };
      expect(validateDefinition('2026-07-28', 'UnsupportedProtocolVersionError', wire)).toEqual([]);
    }
  });

  it('refuses 2026-07-28 when the server does not serve it', () => {
    const error = (() => {
      try {
        readRequestMeta({ _meta: { [VERSION]: '2026-07-28', [CAPS]: {} } }, [], ['2025-11-25']);
      } catch (e) {
        return e as RpcError;
      }
      throw new Error('accepted');
    })();
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: ['2025-11-25'], requested: '2026-07-28' });
  });
});

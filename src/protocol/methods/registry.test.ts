import { describe, expect, it } from 'vitest';
import { ErrorCode, RpcError } from '../../jsonrpc/errors.js';
import { SUPPORTED_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../versions.js';
import {
  ALL_METHODS,
  CallTool,
  Discover,
  GetTaskResult,
  Initialize,
  ListTools,
  Listen,
  methodNotFound,
  registryFor,
} from '../methods.js';

describe('method descriptors', () => {
  it('name every method once', () => {
    const names = ALL_METHODS.map((d) => d.method);
    expect(new Set(names).size).toBe(names.length);
  });

  it('say a revision toolwire knows and at least one era', () => {
    const known: readonly string[] = [...SUPPORTED_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS];
    for (const d of ALL_METHODS) {
      expect(known).toContain(d.since);
      expect(d.eras.length).toBeGreaterThan(0);
    }
  });

  it('are frozen, so nobody changes a method table at run time', () => {
    expect(Object.isFrozen(CallTool)).toBe(true);
    expect(Object.isFrozen(ALL_METHODS)).toBe(true);
  });

  it('check params with the guards of params.ts', () => {
    expect(CallTool.params?.({ name: 'echo' })).toEqual({ name: 'echo', arguments: {} });
    expect(() => CallTool.params?.({ name: 1 })).toThrow(RpcError);
    expect(ListTools.params?.({ cursor: 'c' })).toEqual({ cursor: 'c' });
    expect(GetTaskResult.params?.({ taskId: 't1' })).toEqual({ taskId: 't1' });
    expect(() => GetTaskResult.params?.({ taskId: '' })).toThrow('"taskId" must be');
  });
});

describe('registryFor(era)', () => {
  it('holds the handshake in 2025 and discovery in 2026', () => {
    const legacy = registryFor('2025');
    const modern = registryFor('2026');
    expect(legacy.get(Initialize.method)).toBe(Initialize);
    expect(legacy.has(Discover.method)).toBe(false);
    expect(legacy.has(Listen.method)).toBe(false);
    expect(modern.get(Discover.method)).toBe(Discover);
    expect(modern.has(Initialize.method)).toBe(false);
    expect(modern.has(GetTaskResult.method)).toBe(false);
    for (const era of ['2025', '2026'] as const)
      expect(registryFor(era).has(CallTool.method)).toBe(true);
  });

  it('is built once per era', () => {
    expect(registryFor('2025')).toBe(registryFor('2025'));
  });

  it('lists what each side receives', () => {
    const toServer = registryFor('2025')
      .list({ receivedBy: 'server' })
      .map((d) => d.method);
    expect(toServer).toContain(CallTool.method);
    expect(toServer).not.toContain('sampling/createMessage');
    const toClient = registryFor('2025')
      .list({ receivedBy: 'client' })
      .map((d) => d.method);
    expect(toClient).toContain('sampling/createMessage');
    expect(toClient).not.toContain(CallTool.method);
  });

  it('makes a method an era lacks -32601 by absence', () => {
    const modern = registryFor('2026');
    const lookup = (method: string) => modern.get(method) ?? methodNotFound(method);
    const answer = lookup(Initialize.method);
    expect(answer).toBeInstanceOf(RpcError);
    expect((answer as RpcError).code).toBe(ErrorCode.MethodNotFound);
    expect((answer as RpcError).message).toBe('Method not found: initialize');
  });
});

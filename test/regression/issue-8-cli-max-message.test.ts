// Issue 8: the client's message size limit was fixed at 4 MiB while a server may send more.
// `--max-message-bytes` raises it (for stdio and HTTP), and the error when a message is too large
// names the limit and the flag.
import { describe, expect, it } from 'vitest';
import { CLI_SERVER, toolwire, useHttpServer } from '../support/cliRun.js';
import { CLI } from '../support/paths.js';

const FIVE_MIB = 5 * 1024 * 1024;
const stdio = ['--', process.execPath, CLI, 'serve', CLI_SERVER];

describe('--max-message-bytes', () => {
  const httpUrl = useHttpServer(CLI_SERVER);

  it.each([
    ['stdio', () => stdio],
    ['HTTP', () => [httpUrl()]],
  ])('over %s: a 5 MiB result fails at 4 MiB, naming the limit and the flag', (_name, target) => {
    const r = toolwire(
      'call',
      '--yes',
      'big',
      '--arg',
      `bytes=${FIVE_MIB}`,
      '--json-output',
      ...target(),
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/4194304-byte/);
    expect(r.stderr).toContain(
      '(the limit is 4 MiB: raise it with --max-message-bytes, e.g. --max-message-bytes 64MiB)',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: { kind: 'protocol', code: 'message-too-large', limit: 4 * 1024 * 1024 },
    });
  });

  it.each([
    ['stdio', () => stdio],
    ['HTTP', () => [httpUrl()]],
  ])('over %s: --max-message-bytes 8MiB receives it', (_name, target) => {
    const r = toolwire(
      'call',
      '--yes',
      'big',
      '--arg',
      `bytes=${FIVE_MIB}`,
      '--max-message-bytes',
      '8MiB',
      ...target(),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toHaveLength(FIVE_MIB + 1);
  });

  it('a lower limit applies too, in plain bytes', () => {
    const r = toolwire(
      'call',
      '--yes',
      'big',
      '--arg',
      'bytes=300000',
      '--max-message-bytes',
      '100000',
      ...stdio,
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('(the limit is 100000 bytes: raise it with --max-message-bytes');
  });
});

import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConsoleGuard } from './consoleGuard.js';

const TOKEN = 't'.repeat(43);
/** The guard's verdict on a Bearer-authenticated request to `host`. */
const verdict = (guard: ConsoleGuard, host: string) =>
  guard.check(
    new Request('http://console/api/state', {
      headers: { host, authorization: `Bearer ${TOKEN}` },
    }),
  ).kind;

describe('the hosts a console answers to (found in review)', () => {
  it('on a wildcard address: the machine its own addresses and names, nothing else', () => {
    for (const wildcard of ['0.0.0.0', '::']) {
      const guard = new ConsoleGuard(TOKEN);
      guard.listening(wildcard, 8123);
      expect(verdict(guard, '127.0.0.1:8123')).toBe('allowed');
      expect(verdict(guard, 'localhost:8123')).toBe('allowed');
      expect(verdict(guard, `${hostname()}:8123`)).toBe('allowed');
      expect(verdict(guard, '0.0.0.0:8123')).toBe('refused');
      expect(verdict(guard, 'evil.example:8123')).toBe('refused');
      expect(verdict(guard, '127.0.0.1:8124')).toBe('refused');
    }
  });

  it('a host name given in capitals, as browsers send it: in small letters', () => {
    const guard = new ConsoleGuard(TOKEN);
    guard.listening('MyBox', 8123);
    expect(verdict(guard, 'mybox:8123')).toBe('allowed');
    expect(verdict(guard, 'MYBOX:8123')).toBe('allowed');
  });
});

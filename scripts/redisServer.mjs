// Finds `redis-server`, installing Debian's package when it is missing (the tests and the
// benchmark need a real Redis). Fails loudly when it cannot: Redis tests are never skipped.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = [
  '/usr/bin/redis-server',
  '/usr/local/bin/redis-server',
  '/usr/sbin/redis-server',
];

function found() {
  return CANDIDATES.find((path) => existsSync(path));
}

/** The path of redis-server; installs the `redis-server` Debian package if needed. */
export function ensureRedisServer() {
  const existing = found();
  if (existing) return existing;
  console.error('[redis] redis-server not found; installing Debian package redis-server');
  const apt = (args) =>
    execFileSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    try {
      apt(['install', '-y', '-q', '--no-install-recommends', 'redis-server']);
    } catch {
      apt(['update', '-q']);
      apt(['install', '-y', '-q', '--no-install-recommends', 'redis-server']);
    }
  } catch (error) {
    throw new Error(
      `redis-server is missing and "apt-get install redis-server" failed (${error.message}). ` +
        'The Redis tests need it: install Redis (as root: apt-get install redis-server) and rerun.',
    );
  }
  const installed = found();
  if (!installed)
    throw new Error('apt-get installed redis-server but no redis-server binary was found');
  return installed;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  console.log(ensureRedisServer());
}

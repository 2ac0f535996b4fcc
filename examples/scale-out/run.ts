/**
 * @module Several instances on one machine (`npm run example:scale-out`): a Redis, three
 * `toolwire serve --http --redis` instances of the everything example, and a round-robin proxy in
 * front of them (nginx or HAProxy in production: see docs/http.md), then prints commands that go
 * through the proxy. Each request the proxy forwards is printed with the instance that served
 * it: stateless requests, and a task's session, move between instances. Ctrl-C stops everything.
 *
 *   node build/examples/scale-out/run.js [--port 3000]
 *
 * The instances listen on the three ports after `--port` (with `--port 0`, on free ports), Redis
 * on a free one, without persistence.
 */
import { createServer, request } from 'node:http';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  onStop,
  portOr,
  repositoryRoot,
  start,
  stopAll,
  toolwireCommand,
} from '../shared/processes.js';

const INSTANCES = 3;

/**
 * A round-robin HTTP proxy on 127.0.0.1:`port`: each request goes to the next instance, bodies
 * streamed both ways (SSE included), no stickiness; `onForward` hears which instance got it.
 */
async function roundRobinProxy(
  port: number,
  targets: readonly string[],
  onForward: (index: number, method: string, path: string) => void,
) {
  let next = 0;
  const proxy = createServer((req, res) => {
    const index = next++ % targets.length;
    onForward(index, req.method ?? '', req.url ?? '/');
    const target = new URL(req.url ?? '/', targets[index]);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(port, '127.0.0.1', resolve);
  });
  return proxy;
}

const { values } = parseArgs({ options: { port: { type: 'string', default: '3000' } } });
const root = repositoryRoot();
const toolwire = toolwireCommand(root);
const requested = Number(values.port);
const port = await portOr(requested);
const ports: number[] = [];
for (let i = 1; i <= INSTANCES; i++) ports.push(await portOr(requested === 0 ? 0 : port + i));

// Redis: Debian's redis-server, installed with apt-get when missing (as `npm test` does).
const { ensureRedisServer } = (await import(
  pathToFileURL(join(root, 'scripts/redisServer.mjs')).href
)) as { ensureRedisServer: () => string };
const redisPort = await portOr(0);
const redisUrl = `redis://127.0.0.1:${redisPort}`;
await start(
  'redis-server',
  ensureRedisServer(),
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  /Ready to accept connections/,
);

const module = join(root, 'build/examples/everything/server.js');
const serve = (instancePort: number) => [
  ...['serve', module, '--http', String(instancePort), '--redis', redisUrl],
];
await Promise.all(
  ports.map((instancePort, i) =>
    start(
      `instance ${i + 1}`,
      process.execPath,
      [toolwire.file, ...serve(instancePort)],
      /serving .* on /,
    ),
  ),
);

const url = `http://127.0.0.1:${port}/mcp`;
const proxy = await roundRobinProxy(
  port,
  ports.map((p) => `http://127.0.0.1:${p}`),
  (index, method, path) =>
    console.log(`proxy: ${method} ${path} -> instance ${index + 1} (port ${ports[index]})`),
);

const shown = (...args: string[]) => `  ${toolwire.shown} ${args.join(' ')}`;
const shownModule = relative(process.cwd(), module);
console.log(`Redis: ${redisUrl} (no persistence: stopping it forgets everything)
${INSTANCES} instances sharing it:
${ports.map((p, i) => `  ${i + 1}: ${toolwire.shown} ${serve(p).join(' ').replace(module, shownModule)}`).join('\n')}
Round-robin proxy in front of them: ${url}

In another terminal, in this folder:
${shown('list', url)}
${shown('call', 'add', '--arg', 'a=2', '--arg', 'b=40', url)}
${shown('call', 'report', '--task', '--arg', 'sections=3', '--arg', 'delayMs=200', url)}
    a task (a 2025-11-25 session: --task speaks that era): created on one instance,
    followed and fetched through the others
    (on a terminal call asks first; --yes allows without asking)

Ctrl-C stops everything.`);

onStop(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await stopAll();
});

/**
 * The task benchmark: the same trivial tool called plainly, as a 2025-11-25 task, and as a task of
 * the 2026-07-28 tasks extension (a stateless request declaring it), with the task store in memory
 * and in Redis (a real redis-server on loopback, started here), over stdio
 * with the raw JSON-lines driver. Interleaved rounds, medians. Figures, each at 1 and 16 in flight:
 * plain tools/call round trips/s; task creation (tools/call with `task`, answered with
 * CreateTaskResult) round trips/s; task-augmented calls (creation + tasks/result) per second; the
 * extension's creations and calls (creation, then tasks/get until completed) per second;
 * and the overhead of a task-augmented call over a plain one (plain calls/s / task calls/s).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { LineClient } from './lineClient.js';
import { median, msSince } from './stats.js';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const COUNT = quick ? 500 : 4000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A throwaway redis-server (no persistence) on a free loopback port. */
async function startRedis(): Promise<{ url: string; stop: () => void }> {
  const script = new URL('../../scripts/redisServer.mjs', import.meta.url).href;
  const { ensureRedisServer } = (await import(script)) as { ensureRedisServer: () => string };
  const port = await freePort();
  const child = spawn(
    ensureRedisServer(),
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const { Socket } = await import('node:net');
  for (const deadline = Date.now() + 10_000; ;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = new Socket();
      s.once('error', () => resolve(false));
      s.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

type Store = 'memory' | 'redis';
interface Figures {
  plain1: number;
  plain16: number;
  create1: number;
  create16: number;
  task1: number;
  task16: number;
  extCreate1: number;
  extCreate16: number;
  extTask1: number;
  extTask16: number;
}

/** The `_meta` of a 2026 request that declares the tasks extension. */
const EXTENSION_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

async function rate(inFlight: number, total: number, one: (i: number) => Promise<unknown>) {
  let sent = 0;
  const start = process.hrtime.bigint();
  const lane = async () => {
    while (sent < total) await one(sent++);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return total / (msSince(start) / 1000);
}

async function measure(store: Store, redisUrl: string): Promise<Figures> {
  const c = new LineClient(process.execPath, [here('./servers/taskServer.js')], {
    TASK_STORE: store === 'redis' ? redisUrl : 'memory',
  });
  await c.initialize();
  const plain = (i: number) => c.request('tools/call', { name: 'work', arguments: { n: i } });
  const create = async (i: number) => {
    const r = (await c.request('tools/call', {
      name: 'work',
      arguments: { n: i },
      task: {},
    })) as { task?: { taskId: string } };
    if (!r.task) throw new Error('no task created');
    return r.task.taskId;
  };
  const taskCall = async (i: number) => {
    const result = (await c.request('tasks/result', { taskId: await create(i) })) as {
      content: Array<{ text: string }>;
    };
    if (result.content[0]?.text !== `done ${i}`) throw new Error('wrong task result');
  };
  // The tasks extension: a second process, opened by a 2026 request (no handshake).
  const modern = new LineClient(process.execPath, [here('./servers/taskServer.js')], {
    TASK_STORE: store === 'redis' ? redisUrl : 'memory',
  });
  const extCreate = async (i: number) => {
    const r = (await modern.request('tools/call', {
      name: 'work',
      arguments: { n: i },
      _meta: EXTENSION_META,
    })) as { resultType?: string; taskId?: string };
    if (r.resultType !== 'task' || !r.taskId) throw new Error('no extension task created');
    return r.taskId;
  };
  const extTask = async (i: number) => {
    const taskId = await extCreate(i);
    for (;;) {
      const task = (await modern.request('tasks/get', { taskId, _meta: EXTENSION_META })) as {
        status: string;
        result?: { content: Array<{ text: string }> };
      };
      if (task.status === 'completed') {
        if (task.result?.content[0]?.text !== `done ${i}`) throw new Error('wrong task result');
        return;
      }
      if (task.status !== 'working') throw new Error(`task ${task.status}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  // Warm-up of every path.
  await rate(16, COUNT / 4, plain);
  await rate(16, COUNT / 4, taskCall);
  await rate(16, COUNT / 4, extTask);
  const figures: Figures = {
    plain1: await rate(1, COUNT / 4, plain),
    plain16: await rate(16, COUNT, plain),
    create1: await rate(1, COUNT / 4, create),
    create16: await rate(16, COUNT, create),
    task1: await rate(1, COUNT / 4, taskCall),
    task16: await rate(16, COUNT, taskCall),
    extCreate1: await rate(1, COUNT / 4, extCreate),
    extCreate16: await rate(16, COUNT, extCreate),
    extTask1: await rate(1, COUNT / 4, extTask),
    extTask16: await rate(16, COUNT, extTask),
  };
  await c.close();
  await modern.close();
  return figures;
}

const loadStart = loadavg();
const redis = await startRedis();
const rounds: Record<Store, Figures[]> = { memory: [], redis: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    for (const store of ['memory', 'redis'] as const) {
      process.stderr.write(`[bench] tasks round ${r + 1}/${ROUNDS}: ${store} store\n`);
      rounds[store].push(await measure(store, redis.url));
    }
  }
} finally {
  redis.stop();
}
const KEYS: Array<[keyof Figures, string]> = [
  ['plain1', 'plain tools/call /s @1'],
  ['plain16', 'plain tools/call /s @16'],
  ['create1', 'task creations /s @1'],
  ['create16', 'task creations /s @16'],
  ['task1', 'task calls (create+result) /s @1'],
  ['task16', 'task calls (create+result) /s @16'],
  ['extCreate1', 'extension task creations /s @1'],
  ['extCreate16', 'extension task creations /s @16'],
  ['extTask1', 'extension task calls (create+get) /s @1'],
  ['extTask16', 'extension task calls (create+get) /s @16'],
];
const result = Object.fromEntries(
  (['memory', 'redis'] as const).map((s) => [
    s,
    Object.fromEntries(KEYS.map(([k]) => [k, median(rounds[s].map((f) => f[k]))])),
  ]),
) as unknown as Record<Store, Figures>;
const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' ');
console.log(
  `\ntask benchmark (${ROUNDS} rounds, median; node ${process.version}; stdio; load average ` +
    `${load(loadStart)} at start, ${load(loadavg())} at end)\n`,
);
console.log(
  ['figure'.padEnd(42), 'memory'.padStart(10), 'redis'.padStart(10), 'redis/mem'.padStart(10)].join(
    '',
  ),
);
for (const [k, label] of KEYS) {
  const m = result.memory[k];
  const r = result.redis[k];
  console.log(
    [
      label.padEnd(42),
      m.toFixed(0).padStart(10),
      r.toFixed(0).padStart(10),
      (r / m).toFixed(2).padStart(10),
    ].join(''),
  );
}
console.log('\noverhead of a task-augmented call over a plain one (plain/s / task/s)');
for (const s of ['memory', 'redis'] as const) {
  const f = result[s];
  console.log(
    `  ${s.padEnd(7)} @1 ${(f.plain1 / f.task1).toFixed(2)}x   @16 ${(f.plain16 / f.task16).toFixed(2)}x`,
  );
}
mkdirSync(here('../../.bench-out'), { recursive: true });
writeFileSync(here('../../.bench-out/tasks.json'), JSON.stringify({ rounds, result }, null, 2));

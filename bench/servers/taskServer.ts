// The task benchmark server over stdio: `work` (a trivial tool that may run as a task). Tasks live
// in memory, or in Redis when TASK_STORE is a redis:// URL.
import { McpServer } from 'toolwire';
import { RedisTaskStore } from 'toolwire/redis';
import { StdioServerTransport } from 'toolwire/stdio';

const url = process.env['TASK_STORE'] ?? 'memory';
const store = url.startsWith('redis')
  ? await RedisTaskStore.connect({ url, keyPrefix: 'bench:' })
  : undefined;
const server = new McpServer(
  { name: 'task-bench', version: '1' },
  { tasks: { ...(store ? { store } : {}), defaultTtlMs: 60_000, statusNotifications: false } },
);
server.registerTool(
  'work',
  {
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } } as const,
    execution: { taskSupport: 'optional' },
  },
  ({ n }) => `done ${n ?? 0}`,
);
const session = await server.connect(new StdioServerTransport());
// The Redis connection would keep the process alive after stdin ends.
session.connection.onClose(() => void store?.close());

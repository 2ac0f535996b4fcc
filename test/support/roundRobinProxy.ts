/**
 * @module A load balancer for tests: a loopback HTTP proxy that sends each request to the next
 * live instance in turn (streaming bodies both ways, SSE included), with no stickiness. Tests
 * can pin requests to one instance and take instances out, as a health check would.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running proxy. */
export interface RoundRobinProxy {
  readonly url: string;
  /**
   * Which instance served each request: method, path, instance index, whether it carried an
   * Authorization header, and a Last-Event-ID if any.
   */
  readonly log: Array<{
    method: string;
    path: string;
    instance: number;
    authorization: boolean;
    lastEventId?: string;
  }>;
  /** Sends every request to this instance while set. */
  pin: number | undefined;
  /** Takes an instance out of the rotation (it died). */
  remove(index: number): void;
  close(): Promise<void>;
}

/** Starts a proxy in front of `targets` (base URLs like http://127.0.0.1:1234). */
export async function startRoundRobinProxy(targets: string[]): Promise<RoundRobinProxy> {
  const live = targets.map(() => true);
  let next = 0;
  const log: RoundRobinProxy['log'] = [];
  const state = { pin: undefined as number | undefined };
  const pick = (): number => {
    if (state.pin !== undefined) return state.pin;
    for (let i = 0; i < targets.length; i++) {
      const index = next++ % targets.length;
      if (live[index]) return index;
    }
    throw new Error('no live instance');
  };
  const server: Server = createServer((req, res) => {
    const index = pick();
    const lastEventId = req.headers['last-event-id'];
    log.push({
      method: req.method ?? '',
      path: req.url ?? '',
      instance: index,
      authorization: req.headers.authorization !== undefined,
      ...(typeof lastEventId === 'string' ? { lastEventId } : {}),
    });
    const target = new URL(req.url ?? '/', targets[index]);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    get pin() {
      return state.pin;
    },
    set pin(value) {
      state.pin = value;
    },
    remove: (index) => {
      live[index] = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

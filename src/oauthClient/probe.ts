/**
 * @module How a login finds out what an MCP server asks for: one unauthenticated `initialize`
 * POST (the request every session starts with), whose 401 challenge names the resource metadata
 * and the scope. A server that cannot be reached fails as a connection does.
 */
import { INITIALIZE } from '../jsonrpc/methods.js';
import { PROBE_REVISION } from './eras/probeRevision.js';
import { connectionError } from '../transports/http/client/networkError.js';

/** The answer to the probe: its status and its `WWW-Authenticate` header. */
export interface ProbeAnswer {
  readonly status: number;
  readonly challenge: string | null;
}

/** Sends the probe to `endpoint`. */
export async function probeServer(
  fetcher: typeof fetch,
  endpoint: URL,
  request: { clientName: string; signal?: AbortSignal | undefined },
): Promise<ProbeAnswer> {
  const timeout = AbortSignal.timeout(30_000);
  const response = await fetcher(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: INITIALIZE,
      params: {
        protocolVersion: PROBE_REVISION,
        capabilities: {},
        clientInfo: { name: request.clientName, version: '0' },
      },
    }),
    redirect: 'manual',
    signal: request.signal ? AbortSignal.any([request.signal, timeout]) : timeout,
  }).catch((error: unknown) => {
    throw connectionError('POST', endpoint, error);
  });
  await response.body?.cancel().catch(() => {});
  return { status: response.status, challenge: response.headers.get('www-authenticate') };
}

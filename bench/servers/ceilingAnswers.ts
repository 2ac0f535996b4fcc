/**
 * @module What the ceilings answer: the result objects a bare server builds for each request, in
 * the shapes toolwire sends (the same bytes for `tools/call` of `echo` and for `tools/list`).
 */
import { listedTools } from './bulkTools.js';

/** The part of a request the ceilings read. */
export interface CeilingRequest {
  id?: number | string;
  method: string;
  params?: { arguments?: { message?: string } };
}

const tools = listedTools();
const initialize = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'ceiling', version: '1' },
};

/** The result object of a request (built anew for each call, as any server builds its answer). */
export function resultOf(m: CeilingRequest): unknown {
  if (m.method === 'tools/call')
    return { content: [{ type: 'text', text: m.params?.arguments?.message ?? '' }] };
  if (m.method === 'tools/list') return { tools };
  if (m.method === 'initialize') return initialize;
  return {};
}

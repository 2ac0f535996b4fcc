// The official SDK's stdio benchmark server, with the same tools as toolwireServer.ts.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { sdkServer } from './sdkTools.js';

// In a flood (requests written without a window) the SDK waits for 'drain' once per answer that
// found stdout full: many listeners at once by design, not a leak worth Node's warning.
process.stdout.setMaxListeners(0);
await sdkServer('sdk-bench').connect(new StdioServerTransport());

// The official SDK's stdio benchmark server, with the same tools as toolwireServer.ts.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { sdkServer } from './sdkTools.js';

await sdkServer('sdk-bench').connect(new StdioServerTransport());

import { McpServer } from 'toolwire';
import * as z from 'zod';

const server = new McpServer({ name: 'weather', version: '1.0.0' });

server.registerTool(
  'forecast',
  {
    description: "Tomorrow's forecast for a city",
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), celsius: z.number() }),
    annotations: { readOnlyHint: true }, // it changes nothing
  },
  ({ city }) => ({ structuredContent: { city, celsius: 21.5 } }),
);

export default server;

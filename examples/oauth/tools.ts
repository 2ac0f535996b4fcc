/**
 * @module The protected server of the OAuth example (`npm run example:oauth`): one read-only tool
 * that tells the caller who the access token says they are. `toolwire serve --auth-*` checks the
 * token before any request reaches it.
 */
import { McpServer } from 'toolwire';

const server = new McpServer({ name: 'oauth-example', version: '1.0.0' });

server.registerTool(
  'whoami',
  {
    description: 'Who the access token says you are: subject, client and scopes',
    annotations: { readOnlyHint: true },
  },
  (_args, ctx) => {
    const identity = ctx.identity;
    if (!identity) return 'No access token (the server is not protected)';
    const scopes = identity.scopes?.join(' ') ?? 'none';
    return `Signed in as ${identity.subject} with client ${identity.clientId} (scopes: ${scopes})`;
  },
);

export default server;

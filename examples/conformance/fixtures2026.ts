/**
 * The fixture tools of the conformance suite 0.2.0-alpha.12's 2026-07-28 server scenarios
 * (server-stateless and the input-required-result-* ones), learned from its scenario sources.
 * The same tools serve 2025 sessions, where their requests for input are pushed.
 */
import type { McpServer } from 'toolwire';
import * as z from 'zod';

const NAME_SCHEMA = {
  type: 'object' as const,
  properties: { name: { type: 'string' as const } },
  required: ['name'],
};

/** Registers the 2026 fixtures on `server`. */
export function register2026Fixtures(server: McpServer): void {
  server.registerTool(
    'test_custom_headers',
    {
      description: 'Mirrors its region argument as the Mcp-Param-Region header',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          query: { type: 'string' },
        },
        required: ['region', 'query'],
      },
    },
    ({ region, query }) => `${String(query)} in ${String(region)}`,
  );
  server.registerTool(
    'test_missing_capability',
    { description: 'Needs sampling: a request without the capability is answered -32021' },
    async (_args, { sample }) => {
      await sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
        maxTokens: 10,
      });
      return 'sampled';
    },
  );
  server.registerTool(
    'test_streaming_elicitation',
    { description: 'Asks the user for input (input_required in 2026, a push request in 2025)' },
    async (_args, { elicit }) => {
      const answer = await elicit({
        message: 'Continue?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      return `answered ${answer.action}`;
    },
  );
  server.registerTool(
    'test_logging_tool',
    { description: 'Logs three messages (sent only when the request set a log level)' },
    (_args, { log }) => {
      log.info('first');
      log.warning('second');
      log.error('third');
      return 'logged';
    },
  );
  server.registerTool(
    'test_trigger_tool_change',
    { description: 'Announces a change of the tool list (list_changed), changing nothing' },
    () => {
      server.sendToolListChanged();
      return 'tool list change announced';
    },
  );
  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Asks for a name (key user_name), then greets' },
    async (_args, { elicit }) => {
      const answer = await elicit(
        { message: 'What is your name?', requestedSchema: NAME_SCHEMA },
        { inputKey: 'user_name' },
      );
      return answer.action === 'accept'
        ? `Hello, ${String(answer.content?.['name'])}!`
        : 'No name given.';
    },
  );
  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Asks the model a question (key capital_question)' },
    async (_args, { sample }) => {
      const answer = await sample(
        {
          messages: [
            { role: 'user', content: { type: 'text', text: 'What is the capital of France?' } },
          ],
          maxTokens: 100,
        },
        { inputKey: 'capital_question' },
      );
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return `The model said: ${content?.type === 'text' ? String(content.text) : '(no text)'}`;
    },
  );
  server.registerTool(
    'test_input_required_result_list_roots',
    { description: 'Asks for the client roots (key client_roots)' },
    async (_args, { listRoots }) => {
      const { roots } = await listRoots({ inputKey: 'client_roots' });
      return `Roots: ${roots.map((r) => r.uri).join(', ')}`;
    },
  );
  server.registerTool(
    'test_input_required_result_request_state',
    { description: 'Asks for a confirmation carried in a signed requestState' },
    async (_args, { elicit }) => {
      const answer = await elicit(
        {
          message: 'Please confirm',
          requestedSchema: {
            type: 'object',
            properties: { ok: { type: 'boolean' } },
            required: ['ok'],
          },
        },
        { inputKey: 'confirm' },
      );
      return answer.action === 'accept' ? 'state-ok' : 'not confirmed';
    },
  );
  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks for a name, a greeting and the roots in one round' },
    async (_args, { elicit, sample, listRoots }) => {
      const [name, greeting, roots] = await Promise.all([
        elicit(
          { message: 'What is your name?', requestedSchema: NAME_SCHEMA },
          { inputKey: 'user_name' },
        ),
        sample(
          {
            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
            maxTokens: 50,
          },
          { inputKey: 'greeting' },
        ),
        listRoots({ inputKey: 'client_roots' }),
      ]);
      const said = Array.isArray(greeting.content) ? greeting.content[0] : greeting.content;
      return `${said?.type === 'text' ? String(said.text) : ''} ${String(name.content?.['name'])} (${roots.roots.length} roots)`;
    },
  );
  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Asks two questions, one round each' },
    async (_args, { elicit }) => {
      const first = await elicit(
        { message: 'Step 1: What is your name?', requestedSchema: NAME_SCHEMA },
        { inputKey: 'step1' },
      );
      const second = await elicit(
        {
          message: 'Step 2: What is your favorite color?',
          requestedSchema: {
            type: 'object',
            properties: { color: { type: 'string' } },
            required: ['color'],
          },
        },
        { inputKey: 'step2' },
      );
      return `${String(first.content?.['name'])} likes ${String(second.content?.['color'])}`;
    },
  );
  server.registerTool(
    'test_input_required_result_tampered_state',
    { description: 'Asks for a confirmation; a tampered requestState is refused' },
    async (_args, { elicit }) => {
      const answer = await elicit(
        {
          message: 'Please confirm',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        },
        { inputKey: 'confirm' },
      );
      return `confirmed: ${answer.action}`;
    },
  );
  server.registerTool(
    'test_input_required_result_capabilities',
    {
      description: 'Asks only for what the request declared it can answer',
      inputSchema: z.object({}),
    },
    async (_args, { session, sample, elicit, listRoots }) => {
      const declared = session.clientCapabilities;
      if (declared.sampling) {
        await sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 },
          { inputKey: 'sample' },
        );
        return 'asked by sampling';
      }
      if (declared.elicitation) {
        await elicit(
          { message: 'Hi?', requestedSchema: { type: 'object', properties: {} } },
          { inputKey: 'ask' },
        );
        return 'asked by elicitation';
      }
      if (declared.roots) {
        await listRoots({ inputKey: 'roots' });
        return 'asked for roots';
      }
      return 'nothing to ask with';
    },
  );
}

/**
 * @module A tool as the console's page is sent it: only the fields the page reads, each of the
 * type it reads. The client checks a tool's name and input schema; a server may put anything in
 * the rest (a number as title, a string as icons), and that must not break the page for every
 * server it shows. What is dropped is still in the definition the approval fingerprints.
 */
import type { Tool } from '../../index.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function pageTool(tool: Tool): Tool {
  const given = tool as unknown as Record<string, unknown>;
  const shown: Record<string, unknown> = { name: tool.name, inputSchema: tool.inputSchema };
  for (const text of ['title', 'description'] as const)
    if (typeof given[text] === 'string') shown[text] = given[text];
  for (const object of ['outputSchema', 'annotations', '_meta'] as const)
    if (isPlainObject(given[object])) shown[object] = given[object];
  const icons = given['icons'];
  if (Array.isArray(icons))
    shown['icons'] = icons.filter((icon) => isPlainObject(icon) && typeof icon['src'] === 'string');
  const execution = given['execution'];
  if (isPlainObject(execution))
    shown['execution'] =
      typeof execution['taskSupport'] === 'string' ? { taskSupport: execution['taskSupport'] } : {};
  return shown as unknown as Tool;
}

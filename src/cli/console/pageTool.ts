/**
 * @module A tool as the console's page is sent it: only the fields the page reads, each of the
 * type it reads. The client checks a tool's name and input schema; a server may put anything in
 * the rest (a number as title, a string as icons), and that must not break the page for every
 * server it shows. What is dropped is still in the definition the approval fingerprints. Icons are
 * sent only as `data:` images unless the server is trusted: a remote icon is a request the server
 * chose, made every time the page shows the tool (a tracking pixel).
 */
import type { Tool } from '../../index.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An icon the page may show: a `data:` image, or (for a trusted server) an https one. */
const shownIcon = (src: string, trusted: boolean): boolean =>
  /^data:image\//i.test(src) || (trusted && /^https:\/\//i.test(src));

/** The tool as the page is sent it; `trusted`: its server is trusted (remote icons shown). */
export function pageTool(tool: Tool, trusted = false): Tool {
  const given = tool as unknown as Record<string, unknown>;
  const shown: Record<string, unknown> = { name: tool.name, inputSchema: tool.inputSchema };
  for (const text of ['title', 'description'] as const)
    if (typeof given[text] === 'string') shown[text] = given[text];
  for (const object of ['outputSchema', 'annotations', '_meta'] as const)
    if (isPlainObject(given[object])) shown[object] = given[object];
  const icons = given['icons'];
  if (Array.isArray(icons))
    shown['icons'] = icons.filter(
      (icon) =>
        isPlainObject(icon) && typeof icon['src'] === 'string' && shownIcon(icon['src'], trusted),
    );
  const execution = given['execution'];
  if (isPlainObject(execution))
    shown['execution'] =
      typeof execution['taskSupport'] === 'string' ? { taskSupport: execution['taskSupport'] } : {};
  return shown as unknown as Tool;
}

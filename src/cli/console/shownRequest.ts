/**
 * @module A confirmation as the console's page is sent it: the definitions in the shape the page
 * reads (remote icons only for a trusted server), what changed (computed here from the whole
 * definitions: a change only in what the page does not read is a change too), the server's
 * identity beside the name it gives itself, and what the person should know of the tool's text
 * (hidden characters, a name like another tool's on any server).
 */
import type { ApprovalRequest } from '../../client.js';
import { toolTextFindings } from '../../client/approval/toolText.js';
import { definitionDiff } from '../definitionDiff.js';
import { pageTool } from './pageTool.js';
import type { ServerLink } from './serverLink.js';

/** A confirmation as the page is sent it. */
export type ShownRequest = Omit<ApprovalRequest, 'signal'> & {
  diff?: string[];
  /** What the person should know about the tool's text (hidden characters, look-alike names). */
  findings?: string[];
  /** The server's identity (what the person configured), beside the name it gives itself. */
  target?: string;
};

/** The confirmation `asked` of `link`'s server, beside the tools named `names` (every server's). */
export function shownRequest(
  asked: Omit<ApprovalRequest, 'signal'>,
  link: Pick<ServerLink, 'target' | 'trustAnnotations'>,
  names: readonly string[],
): ShownRequest {
  const trusted = link.trustAnnotations;
  const others = names.filter((n) => n !== asked.tool.name);
  const findings = toolTextFindings([asked.tool], others).get(asked.tool.name);
  return {
    ...asked,
    target: link.target,
    tool: pageTool(asked.tool, trusted),
    ...(findings ? { findings: findings.map((f) => f.message) } : {}),
    ...(asked.renamedFrom
      ? {
          renamedFrom: {
            ...asked.renamedFrom,
            definition: pageTool(asked.renamedFrom.definition, trusted),
          },
        }
      : {}),
    ...(asked.previous
      ? {
          previous: pageTool(asked.previous, trusted),
          diff: definitionDiff(asked.previous, asked.tool),
        }
      : {}),
  };
}

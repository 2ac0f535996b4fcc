/**
 * @module {@link ServerToolNames}: one set of tool names for a host that offers a model the tools
 * of several servers. Each tool is exposed as `<server>__<tool>`, the server part being the
 * host's own name for the server (what the person configured, never the name a server gives
 * itself), so no server can shadow another's tool by choosing the same name. Names keep to the
 * characters and length models accept (`[A-Za-z0-9_-]`, 64 by default), and stay unique when
 * cleaning them would make two alike (a short hash of the original is added). Look-alike names
 * across servers (`ｒｅａｄ` beside `read`) and invisible characters are reported.
 */
import type { Tool } from '../../protocol/types.js';
import { nameSkeleton, toolTextFindings, type ToolTextFinding } from './toolText.js';

/** One tool as the model sees it. */
export interface ExposedTool {
  /** The name the model calls it by. */
  readonly name: string;
  /** The host's name for its server. */
  readonly server: string;
  /** The tool as its server defines it (its own name included). */
  readonly tool: Tool;
  /** What the person should know about its text (look-alike names across every server, hidden characters). */
  readonly findings: readonly ToolTextFinding[];
}

/** Options of {@link ServerToolNames}. */
export interface ServerToolNamesOptions {
  /** Between the server's and the tool's name. Default `__`. */
  separator?: string;
  /** The longest name a model accepts. Default 64 (many model APIs' limit). */
  maxLength?: number;
}

/** A short, stable hash of a text (FNV-1a, base 36), to tell apart names cleaning made alike. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36).padStart(7, '0').slice(0, 7);
}

/** A name part with only the characters models accept (others become `_`). */
const clean = (part: string): string =>
  part.normalize('NFKC').replace(/[^A-Za-z0-9_-]/g, '_') || '_';

/** The tools of several servers under one set of names. */
export class ServerToolNames {
  private readonly separator: string;
  private readonly maxLength: number;
  /** Each server's tools, in the order servers were added. */
  private readonly servers = new Map<string, readonly Tool[]>();
  private exposed: ExposedTool[] = [];
  private byName = new Map<string, ExposedTool>();

  constructor(options: ServerToolNamesOptions = {}) {
    this.separator = options.separator ?? '__';
    this.maxLength = options.maxLength ?? 64;
    if (!/^[A-Za-z0-9_-]+$/.test(this.separator))
      throw new RangeError('The separator must be made of A-Z, a-z, 0-9, "_" and "-"');
    if (!Number.isInteger(this.maxLength) || this.maxLength < 24)
      throw new RangeError('maxLength must be a whole number of at least 24');
  }

  /** Sets (or replaces) the tools of the server the host calls `server`. */
  set(server: string, tools: readonly Tool[]): void {
    this.servers.set(server, tools);
    this.rebuild();
  }

  /** Removes a server's tools. */
  delete(server: string): void {
    if (this.servers.delete(server)) this.rebuild();
  }

  /** Every tool as the model sees it, servers in the order they were added. */
  list(): readonly ExposedTool[] {
    return this.exposed;
  }

  /** The server and tool a model's name stands for, if any. */
  resolve(name: string): ExposedTool | undefined {
    return this.byName.get(name);
  }

  /** The name the model knows a server's tool by. */
  nameOf(server: string, tool: string): string | undefined {
    return this.exposed.find((e) => e.server === server && e.tool.name === tool)?.name;
  }

  private rebuild(): void {
    const all = [...this.servers].flatMap(([server, tools]) =>
      tools.map((tool) => ({ server, tool })),
    );
    // Look-alikes are judged across every server: the model sees all the names side by side.
    const everyName = all.map((e) => e.tool.name);
    const findings = new Map<string, Map<string, ToolTextFinding[]>>();
    for (const [server, tools] of this.servers)
      findings.set(
        server,
        toolTextFindings(
          tools,
          everyName.filter((n) => !tools.some((t) => t.name === n)),
        ),
      );
    const taken = new Set<string>();
    this.exposed = all.map(({ server, tool }) => {
      const name = this.unique(server, tool.name, taken);
      taken.add(name);
      return { name, server, tool, findings: findings.get(server)?.get(tool.name) ?? [] };
    });
    this.byName = new Map(this.exposed.map((e) => [e.name, e]));
  }

  /** `<server>__<tool>`, cleaned, within the length, and unique (a hash added when needed). */
  private unique(server: string, tool: string, taken: ReadonlySet<string>): string {
    const plain = `${clean(server)}${this.separator}${clean(tool)}`;
    const exact = plain === `${server}${this.separator}${tool}`;
    if (exact && plain.length <= this.maxLength && !taken.has(plain)) return plain;
    // Cleaning or cutting changed it, or it is taken: the hash of the original tells it apart.
    const suffix = `_${shortHash(`${server}\u0000${tool}\u0000${nameSkeleton(tool)}`)}`;
    let name = `${plain.slice(0, this.maxLength - suffix.length)}${suffix}`;
    for (let n = 2; taken.has(name); n++)
      name = `${plain.slice(0, this.maxLength - suffix.length - String(n).length)}${suffix}${n}`;
    return name;
  }
}

// Issue 8: every command has --help (and `toolwire help <command>`), the program has --version,
// usage errors never show Node's argument parser's own messages, and the usage text is aligned.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolwire } from '../support/cliRun.js';
import { ROOT } from '../support/paths.js';

/** The column where the descriptions of an indented two-column block start, per line. */
function descriptionColumns(block: string): number[] {
  return block
    .split('\n')
    .filter((line) => /^ {2}\S.*\S {2,}\S/.test(line))
    .map((line) => /^ {2}\S+(?: \S+)*? {2,}/.exec(line)?.[0].length ?? -1);
}

describe('help', () => {
  it.each(['serve', 'list', 'call'])('%s --help, -h and help %s agree, exit 0', (command) => {
    const long = toolwire(command, '--help');
    expect(long.code).toBe(0);
    expect(long.stderr).toBe('');
    expect(long.stdout).toMatch(new RegExp(`^Usage: toolwire ${command} `));
    expect(long.stdout).toContain('Options:\n');
    expect(long.stdout).toContain('  -h, --help');
    expect(toolwire(command, '-h').stdout).toBe(long.stdout);
    expect(toolwire('help', command).stdout).toBe(long.stdout);
    // Help wins over other mistakes on the line.
    expect(toolwire(command, '--bogus', '--help').stdout).toBe(long.stdout);
    const options = long.stdout.split('Options:\n')[1]?.split('\n\n')[0] ?? '';
    expect(descriptionColumns(options).length).toBeGreaterThan(3);
    expect(new Set(descriptionColumns(options)).size).toBe(1);
  });

  it('the program help lists the commands in aligned columns', () => {
    const r = toolwire('--help');
    expect(r.code).toBe(0);
    expect(toolwire().stdout).toBe(r.stdout);
    expect(toolwire('help').stdout).toBe(r.stdout);
    for (const command of [
      'serve',
      'list',
      'call',
      'login',
      'logout',
      'approvals',
      'help',
      '--version',
    ])
      expect(r.stdout).toContain(`toolwire ${command}`);
    const usage = r.stdout.split('Usage:\n')[1]?.split('\n\n')[0] ?? '';
    expect(descriptionColumns(usage)).toHaveLength(12);
    expect(new Set(descriptionColumns(usage)).size).toBe(1);
    expect(r.stdout).toContain('130  interrupted');
  });

  it('--version prints the version of the package', () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
      version: string;
    };
    expect(toolwire('--version')).toEqual({ code: 0, stdout: `toolwire ${version}\n`, stderr: '' });
    expect(toolwire('-v').stdout).toBe(`toolwire ${version}\n`);
  });
});

describe('usage errors are in the program’s own words', () => {
  it.each([
    [['call', '--yes', 'add', '--foo'], 'call: unknown option --foo (see toolwire call --help)'],
    [
      ['call', '--yes', 'add', '--jsonoutput'],
      'call: unknown option --jsonoutput; did you mean --json-output? (see toolwire call --help)',
    ],
    [['list', '-x'], 'list: unknown option -x (see toolwire list --help)'],
    [
      ['call', '--yes', 'add', '--timeout'],
      'call: --timeout needs a value (see toolwire call --help)',
    ],
    [
      ['call', '--yes', 'add', '--timeout', '--task'],
      'call: --timeout needs a value (write --timeout=-value for one starting with "-") (see toolwire call --help)',
    ],
    [
      ['call', '--yes', 'add', '--task=yes'],
      'call: --task takes no value (see toolwire call --help)',
    ],
    [
      ['serve', 'm.js', '--htp', '80'],
      'serve: unknown option --htp; did you mean --http? (see toolwire serve --help)',
    ],
    [
      ['list', '--max-message-bytes', 'lots', 'http://x'],
      'list: --max-message-bytes needs a size from 1KiB to 512MiB, such as 16MiB or 20000000 (got "lots")',
    ],
    [
      ['lsit'],
      'Unknown command "lsit". Did you mean "list"? Commands: serve, list, call, login, logout, approvals, console (see toolwire help).',
    ],
    [
      ['help', 'frob'],
      'help: no command "frob" (commands: serve, list, call, login, logout, approvals, console)',
    ],
  ])('%j', (argv, message) => {
    const r = toolwire(...argv);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `${message}\n` });
    // Nothing of util.parseArgs' own wording ("To specify a positional argument...").
    expect(r.stderr).not.toMatch(/positional argument|argument missing|ERR_PARSE_ARGS/);
  });
});

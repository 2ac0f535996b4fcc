#!/usr/bin/env node
/**
 * @module The `toolwire` program: parses the command line and runs one command. A thin shell over
 * the library's entry points (STYLE.md §2.5). Every failure is described by failure.ts and
 * printed once, on stderr (and as JSON on stdout with `--json-output`).
 */
import { parseCommand, wantsJsonOutput, type Command } from './args.js';
import { callCommand, listCommand } from './clientCommands.js';
import { describeFailure, printFailure } from './failure.js';
import { approvalsCommand } from './approvalsCommand.js';
import { consoleCommand } from './consoleCommand.js';
import { loginCommand } from './loginCommand.js';
import { logoutCommand } from './logoutCommand.js';
import { serve } from './serve.js';
import { commandHelp, USAGE } from './usage.js';
import { packageVersion } from './version.js';

async function run(command: Command): Promise<number> {
  const io = { stdout: process.stdout, stderr: process.stderr };
  switch (command.kind) {
    case 'help':
      process.stdout.write((command.topic ? commandHelp(command.topic) : USAGE) + '\n');
      return 0;
    case 'version':
      process.stdout.write(`toolwire ${packageVersion()}\n`);
      return 0;
    case 'serve':
      return serve(command);
    case 'list':
      return listCommand(command, io);
    case 'call':
      return callCommand(command, io);
    case 'login':
      return loginCommand(command, io);
    case 'logout':
      return logoutCommand(command, io);
    case 'approvals':
      return approvalsCommand(command, io);
    case 'console':
      return consoleCommand(command, { ...io, stdin: process.stdin });
  }
}

const argv = process.argv.slice(2);
let kind: Command['kind'] | undefined;
Promise.resolve()
  .then(() => {
    const command = parseCommand(argv);
    kind = command.kind;
    return run(command);
  })
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.exitCode = printFailure(describeFailure(error), process, wantsJsonOutput(argv));
      // A module serve refused may still hold the process open (a transport of its own reading
      // stdin, timers): the host that started it would wait for a server that never comes.
      if (kind === 'serve') process.exit();
    },
  );

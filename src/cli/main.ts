#!/usr/bin/env node
/**
 * @module The `toolwire` program: parses the command line and runs one command. A thin shell over
 * the library's entry points (STYLE.md §2.5). Every failure is described by failure.ts and
 * printed once, on stderr (and as JSON on stdout with `--json-output`).
 */
import { parseCommand, wantsJsonOutput, type Command } from './args.js';
import { describeFailure, printFailure } from './failure.js';
import { commandHelp, USAGE } from './usage.js';
import { packageVersion } from './version.js';

// Each command's code is loaded when that command runs: `call` against a stdio server does not
// load the console, the OAuth client or the server, and starts in about two thirds of the time.
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
      return (await import('./serve.js')).serve(command);
    case 'list':
      return (await import('./clientCommands.js')).listCommand(command, io);
    case 'call':
      return (await import('./clientCommands.js')).callCommand(command, io);
    case 'login':
      return (await import('./loginCommand.js')).loginCommand(command, io);
    case 'logout':
      return (await import('./logoutCommand.js')).logoutCommand(command, io);
    case 'approvals':
      return (await import('./approvalsCommand.js')).approvalsCommand(command, io);
    case 'console':
      return (await import('./consoleCommand.js')).consoleCommand(command, {
        ...io,
        stdin: process.stdin,
      });
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

#!/usr/bin/env node
/**
 * @module The `toolwire` program: parses the command line and runs one command. A thin shell over
 * the library's entry points (STYLE.md §2.5).
 */
import { LocalError } from '../index.js';
import { parseCommand, USAGE, UsageError } from './args.js';
import { callCommand, listCommand } from './clientCommands.js';
import { serve } from './serve.js';

async function main(argv: readonly string[]): Promise<number> {
  const command = parseCommand(argv);
  const io = { stdout: process.stdout, stderr: process.stderr };
  switch (command.kind) {
    case 'help':
      process.stdout.write(USAGE + '\n');
      return 0;
    case 'serve':
      return serve(command);
    case 'list':
      return listCommand(command, io);
    case 'call':
      return callCommand(command, io);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 2;
    } else {
      const message =
        error instanceof LocalError || error instanceof Error ? error.message : String(error);
      process.stderr.write(`toolwire: ${message}\n`);
      process.exitCode = 3;
    }
  },
);

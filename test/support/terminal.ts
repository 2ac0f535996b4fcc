/**
 * @module Running the built `toolwire` with a private config folder, without a terminal or on a
 * real one (a pseudo-terminal from util-linux `script`), answering its prompts as a person would.
 */
import { spawn } from 'node:child_process';
import { CLI } from './paths.js';

/** What a run printed, and its exit status. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without a terminal (stdin closed), with `XDG_CONFIG_HOME` at `home`. */
export function runCli(args: string[], home: string, cwd?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the CLI on a pseudo-terminal (`script`), typing each answer once the terminal shows its
 * prompt (`[prompt, answer]` in order; a string: the answer to `Allow?`); resolves with
 * everything the terminal showed and the exit status. 20 s at most.
 */
export function runOnTerminal(
  args: string[],
  answers: string | Array<[string, string]>,
  home: string,
  cwd?: string,
): Promise<{ code: number | null; screen: string }> {
  const script =
    typeof answers === 'string' ? [['Allow?', answers] as [string, string]] : [...answers];
  const command = [process.execPath, CLI, ...args]
    .map((w) => `'${w.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: { ...process.env, XDG_CONFIG_HOME: home, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let screen = '';
    let seen = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no end on the terminal: ${screen}`));
    }, 20_000);
    child.stdout.on('data', (c: Buffer) => {
      screen += c.toString();
      // Answer each prompt once it appears after the previous answer.
      while (script.length > 0 && screen.indexOf(script[0]![0], seen) >= 0) {
        const [prompt, answer] = script.shift()!;
        seen = screen.indexOf(prompt, seen) + prompt.length;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // The terminal writes \r\n for each \n.
      resolve({ code, screen: screen.replace(/\r\n/g, '\n') });
    });
  });
}

/**
 * @module Signalling a stdio server with everything it started. A server launched through
 * `sh -c`, `npx` or a wrapper script is a tree of processes; signalling the direct child alone
 * leaves the rest running. On POSIX the server runs in its own process group and the group is
 * signalled (`kill(-pgid)`); Windows has no groups, and `taskkill /T /F` ends the tree instead.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Sends `signal` to every process of the group `pgid`. False when the group has no process left
 * (ESRCH): from then on the number may be reused, so callers stop signalling it.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    // EPERM: a member exists that this process may not signal (it changed its user id).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The state and process group of a Linux process (`/proc/<pid>/stat`: after the command name in
 * parentheses come state, ppid, pgrp), or undefined when it is gone.
 */
function linuxStat(pid: string): { state: string; pgrp: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
  return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
}

/**
 * Whether a process of the group `pgid` still runs: not merely a zombie. A killed process whose
 * parent died waits for init to reap it, and some inits (a container's, a sandbox's) take
 * seconds or never do; `kill(-pgid, 0)` counts those. On Linux, `/proc` tells them apart.
 */
function linuxGroupRuns(pgid: number): boolean {
  const leader = linuxStat(String(pgid));
  if (leader && leader.pgrp === pgid && leader.state !== 'Z' && leader.state !== 'X') return true;
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const pid of pids) {
    const code = pid.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const stat = linuxStat(pid);
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true;
  }
  return false;
}

/** Whether any process of the group `pgid` is still alive (zombies aside, on Linux). */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  return process.platform === 'linux' ? linuxGroupRuns(pgid) : true;
}

/**
 * Ends the process tree of `pid` on Windows (forcefully: Windows has no SIGTERM for console
 * programs). Resolves once taskkill has finished, whatever it found.
 */
export function killTree(pid: number): Promise<void> {
  return new Promise((resolve) => {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
      shell: false,
    });
    killer.once('error', () => resolve());
    killer.once('close', () => resolve());
  });
}

/** A process group this process started and has not seen end. */
export interface LiveGroup {
  readonly pgid: number;
  /** The signal the parent's exit sends: SIGTERM, or SIGKILL once a close() sent SIGTERM. */
  readonly exitSignal: NodeJS.Signals;
}

const live = new Set<LiveGroup>();
let hooked = false;

/**
 * Signals every live group when this process exits without having closed its servers. A
 * detached group does not get the terminal's signals, and a server that ignores its stdin
 * closing would outlive its host. ('exit' does not run when a signal kills this process: then
 * the servers see only stdin close.)
 */
function onExit(): void {
  for (const group of live) signalGroup(group.pgid, group.exitSignal);
}

/** Tracks `group` until {@link forgetGroup}; the first one installs the 'exit' listener. */
export function trackGroup(group: LiveGroup): void {
  live.add(group);
  if (!hooked) {
    hooked = true;
    process.on('exit', onExit);
  }
}

/** Stops tracking `group` (it ended, or was signalled for good). */
export function forgetGroup(group: LiveGroup): void {
  live.delete(group);
}

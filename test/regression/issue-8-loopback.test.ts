/**
 * @module Issue 8: the conformance suite's loopback preload is the project's own
 * (test/conformance/forceLoopback.mjs), not a file found beside the checkout. It must bind every
 * server that names no host to 127.0.0.1 synchronously (the suite reads `address().port` right
 * after `listen()`), leave explicit hosts alone and give `dns.lookup` back after each call.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import * as conformance from '../../scripts/conformance.mjs';
import { ROOT } from '../support/paths.js';

const { LOOPBACK } = conformance as unknown as { LOOPBACK: string };

// Each line: how listen() was called, then the address seen synchronously after the call.
const PROBE = `
const net = require('node:net');
const http = require('node:http');
const dns = require('node:dns');
const lookup = dns.lookup;
const servers = [];
const probe = (label, server, ...args) => {
  servers.push(server);
  server.listen(...args);
  console.log(JSON.stringify({ label, address: server.address(), lookupRestored: dns.lookup === lookup }));
};
probe('http listen(0)', http.createServer(), 0);
probe('listen(0, callback)', net.createServer(), 0, () => {});
probe('listen("0", backlog)', net.createServer(), '0', 16);
probe('listen({ port: 0 })', net.createServer(), { port: 0 });
probe('listen()', net.createServer());
// A host the caller names is left to Node: looked up asynchronously, so no address yet.
const explicit = net.createServer();
servers.push(explicit);
explicit.listen(0, 'localhost', () => {
  console.log(JSON.stringify({ label: 'explicit localhost, listening', address: explicit.address() }));
  for (const s of servers) s.close();
});
console.log(JSON.stringify({ label: 'explicit localhost', address: explicit.address(), lookupRestored: dns.lookup === lookup }));
`;

interface Line {
  label: string;
  address: { address: string; port: number } | null;
  lookupRestored?: boolean;
}

describe('issue 8: the conformance loopback preload', () => {
  it('lives in the repository and is what the conformance runner preloads', () => {
    expect(LOOPBACK.startsWith(ROOT)).toBe(true);
    expect(existsSync(LOOPBACK)).toBe(true);
  });

  it('binds host-less servers to 127.0.0.1 at once and leaves a named host to Node', () => {
    const out = execFileSync(
      process.execPath,
      ['--import', pathToFileURL(LOOPBACK).href, '--input-type=commonjs', '-e', PROBE],
      { encoding: 'utf8', timeout: 20_000 },
    );
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(lines.map((l) => l.label)).toEqual([
      'http listen(0)',
      'listen(0, callback)',
      'listen("0", backlog)',
      'listen({ port: 0 })',
      'listen()',
      'explicit localhost',
      'explicit localhost, listening',
    ]);
    for (const line of lines.slice(0, 5)) {
      expect(line.address?.address, line.label).toBe('127.0.0.1');
      expect(line.address?.port, line.label).toBeGreaterThan(0);
      expect(line.lookupRestored, line.label).toBe(true);
    }
    expect(lines[5]?.address).toBeNull();
    expect(lines[5]?.lookupRestored).toBe(true);
    expect(['127.0.0.1', '::1']).toContain(lines[6]?.address?.address);
  });
});

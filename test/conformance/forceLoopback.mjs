/**
 * @module Preload that keeps the official conformance CLI's client-mode test servers on 127.0.0.1
 * (`node --import ./forceLoopback.mjs <conformance cli> client ...`, see scripts/conformance.mjs).
 *
 * Why it exists: in client mode the CLI starts one HTTP test server per scenario with `listen(0)`,
 * which binds every interface, reads `server.address().port` right after the call and hands the
 * client `http://localhost:<port>`. toolwire's tests talk to servers on 127.0.0.1 only, so here
 * every `listen()` that names no host, pipe or handle gets the host 127.0.0.1.
 *
 * Node binds a `listen()` that names a host only once `dns.lookup` has answered for it, and that
 * answer comes asynchronously even for an IP literal, so `address()` would still be null when the
 * CLI reads it. While such a `listen()` runs, a lookup of the loopback literal therefore answers at
 * once; outside those calls `dns.lookup` is Node's own.
 */
import dns from 'node:dns';
import net from 'node:net';

const LOOPBACK = '127.0.0.1';
const nodeListen = net.Server.prototype.listen;
const nodeLookup = dns.lookup;

/** `dns.lookup` that answers the loopback literal synchronously and passes anything else on. */
function lookupLoopbackAtOnce(hostname, ...rest) {
  if (hostname !== LOOPBACK) return Reflect.apply(nodeLookup, dns, [hostname, ...rest]);
  const [options, callback] = rest;
  const done = typeof options === 'function' ? options : callback;
  if (typeof options === 'object' && options !== null && options.all)
    done(null, [{ address: LOOPBACK, family: 4 }]);
  else done(null, LOOPBACK, 4);
  return {};
}

const isPort = (value) =>
  typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value));

/** The `listen()` arguments with 127.0.0.1 as host when the caller named no host, pipe or handle. */
function onLoopback(args) {
  const [first, second] = args;
  // listen() and listen(callback): any port.
  if (args.length === 0 || typeof first === 'function') return [0, LOOPBACK, ...args];
  // listen(port[, host][, backlog][, callback]): the host, when given, is the string after the port.
  if (isPort(first)) {
    return typeof second === 'string' ? args : [first, LOOPBACK, ...args.slice(1)];
  }
  // listen(options[, callback]) with a port and no host; a path, fd or handle is left alone.
  if (typeof first === 'object' && first !== null && first.host === undefined) {
    const bindsElsewhere = ['path', 'fd', 'handle', '_handle'].some((key) => key in first);
    if (!bindsElsewhere) return [{ ...first, host: LOOPBACK }, ...args.slice(1)];
  }
  return args;
}

net.Server.prototype.listen = function listenOnLoopback(...args) {
  dns.lookup = lookupLoopbackAtOnce;
  try {
    return Reflect.apply(nodeListen, this, onLoopback(args));
  } finally {
    dns.lookup = nodeLookup;
  }
};

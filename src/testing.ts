/**
 * @module `toolwire/testing`: test a server's tools with a client connected in memory at a
 * chosen revision, with every message the server sends checked against the official JSON Schema
 * of that revision (shipped with the package).
 */
export { connectInMemory } from './testing/connectInMemory.js';
export type { InMemoryConnection, InMemoryConnectOptions } from './testing/connectInMemory.js';
export { WireViolation } from './testing/wireViolation.js';
export type { SchemaProblem } from './testing/wireSchema.js';

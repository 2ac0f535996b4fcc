/**
 * @module The shape of a method descriptor (STYLE.md §2.8): the method name, who sends it, the
 * revision that introduced it, the eras that have it, the guard of its params where toolwire
 * checks them, the capability it needs, and the params and result types as a type carrier. Era
 * method tables (registry.ts) and the handler tables of server and client are built from these.
 */
import type { JsonObject } from '../../jsonrpc/types.js';
import type { EraName } from '../eras/eraName.js';
import type { Revision } from '../versions.js';

/** Who sends a method. */
export type Direction = 'client-to-server' | 'server-to-client' | 'both';

/**
 * The capability a method needs: a key of the receiving side's advertised capabilities
 * (`server`: `tools`, `logging`, `tasks`; `client`: `sampling`, `elicitation`, `roots`).
 */
export interface CapabilityNeed {
  readonly of: 'server' | 'client';
  readonly key: string;
}

/**
 * Checks incoming params and returns them typed; throws -32602 (an `RpcError`) for bad ones.
 * The guards are those of `protocol/params.ts`.
 */
export type ParamsGuard<P> = (params: JsonObject | undefined) => P;

/** What request and notification descriptors share. */
interface MethodFacts<P> {
  /** The method name on the wire: the only place it is spelled. */
  readonly method: string;
  readonly direction: Direction;
  /** The revision that introduced the method. */
  readonly since: Revision;
  /** The eras that have the method; an era not listed answers -32601 by absence. */
  readonly eras: readonly EraName[];
  /** The capability the method needs, when one does. */
  readonly capability?: CapabilityNeed | undefined;
  /** The guard of incoming params, where toolwire checks them. */
  readonly params?: ParamsGuard<P> | undefined;
}

/** A request method and its params and result types. */
export interface RequestMethod<P, R> extends MethodFacts<P> {
  readonly kind: 'request';
  /** Type carrier only; never set. */
  readonly types?: { params: P; result: R };
}

/** A notification method and its params type. */
export interface NotificationMethod<P> extends MethodFacts<P> {
  readonly kind: 'notification';
  /** Type carrier only; never set. */
  readonly types?: { params: P };
}

/** Any descriptor, whatever its types. */
export type MethodDescriptor = RequestMethod<unknown, unknown> | NotificationMethod<unknown>;

/** The params type a descriptor carries. */
export type ParamsOf<D> =
  D extends RequestMethod<infer P, unknown> ? P : D extends NotificationMethod<infer P> ? P : never;

/** The result type a request descriptor carries. */
export type ResultOf<D> = D extends RequestMethod<unknown, infer R> ? R : never;

/** What a descriptor says beyond its name (the builders' options). */
interface Facts<P> {
  readonly direction: Direction;
  readonly since: Revision;
  readonly eras: readonly EraName[];
  readonly capability?: CapabilityNeed;
  readonly params?: ParamsGuard<P>;
}

/** Builds a request descriptor. */
export function request<P, R>(method: string, facts: Facts<P>): RequestMethod<P, R> {
  return Object.freeze({ kind: 'request', method, ...facts });
}

/** Builds a notification descriptor. */
export function notification<P>(method: string, facts: Facts<P>): NotificationMethod<P> {
  return Object.freeze({ kind: 'notification', method, ...facts });
}

/** Both eras, for the methods that have not changed in kind. */
export const BOTH_ERAS: readonly EraName[] = Object.freeze(['2025', '2026']);
/** The handshake era only. */
export const ERA_2025: readonly EraName[] = Object.freeze(['2025']);
/** The stateless era only. */
export const ERA_2026: readonly EraName[] = Object.freeze(['2026']);

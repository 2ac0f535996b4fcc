/**
 * @module The names of the two protocol eras. The 2025 era is the handshake family of revisions
 * (2024-11-05 … 2025-11-25: `initialize`, sessions, push requests to the client); the 2026 era
 * starts with 2026-07-28 (stateless self-describing requests, `server/discover`,
 * `subscriptions/listen`, input by round trip). Descriptors say which eras have a method; an era
 * object (see era.ts) carries everything else that differs.
 */

/** Every era toolwire knows, oldest first. */
export const ERA_NAMES = ['2025', '2026'] as const;

/** One protocol era. */
export type EraName = (typeof ERA_NAMES)[number];

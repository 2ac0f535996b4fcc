/** @module Paths of built artefacts the integration tests run as processes. */
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = `${ROOT}dist/cli/main.js`;
export const EVERYTHING = `${ROOT}build/examples/everything/server.js`;
/** The quick start's client, run as the README runs it (tsx); it starts its server.ts with tsx. */
export const QUICKSTART_CLIENT = `${ROOT}examples/quickstart/client.ts`;
export const NOISY = `${ROOT}build/test/fixtures/noisyServer.js`;
export const SDK_SERVER = `${ROOT}build/test/fixtures/sdkServer.js`;
export const SDK_CLIENT = `${ROOT}build/test/fixtures/sdkClient.js`;
export const SDK_HTTP_SERVER = `${ROOT}build/test/fixtures/sdkHttpServer.js`;
export const CLUSTER_SERVER = `${ROOT}build/test/fixtures/clusterServer.js`;
export const PIPELINE_SERVER = `${ROOT}build/test/fixtures/pipelineServer.js`;
export const STRICT_LEGACY_SERVER = `${ROOT}build/test/fixtures/strictLegacyServer.js`;

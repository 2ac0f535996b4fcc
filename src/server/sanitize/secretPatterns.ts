/**
 * @module A ready-made list of redaction rules for secrets with an unmistakable shape, to opt in
 * to with `sanitize: { redact: COMMON_SECRET_PATTERNS }` (or a filtered copy). Chosen for
 * precision over recall: each pattern has a fixed prefix or framing that ordinary text does not,
 * and every repetition is bounded by what follows it, so a long string cannot make a pattern
 * backtrack for long. It does not look for "password=…" assignments or high-entropy strings,
 * which would redact ordinary output too.
 */
import type { RedactionRule } from './redaction.js';

/** Secrets with a recognisable shape; see the module documentation. Frozen. */
export const COMMON_SECRET_PATTERNS: readonly Readonly<RedactionRule>[] = Object.freeze(
  [
    {
      name: 'private-key',
      // A PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), also cut short.
      pattern:
        /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|$)/g,
      replacement: '[REDACTED PRIVATE KEY]',
    },
    { name: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
    {
      name: 'github-token',
      pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
    },
    { name: 'gitlab-token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
    { name: 'slack-token', pattern: /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g },
    { name: 'stripe-secret-key', pattern: /\b[rs]k_live_[A-Za-z0-9]{16,}/g },
    { name: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
    { name: 'openai-anthropic-key', pattern: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{32,}/g },
    {
      name: 'jwt',
      pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    },
    {
      name: 'authorization-credentials',
      // `Bearer <token>` / `Basic <base64>` as printed from an Authorization header.
      pattern: /\b(Bearer|Basic)[ \t]+[A-Za-z0-9\-._~+/]{16,}=*/gi,
      replacement: '$1 [REDACTED]',
    },
    {
      name: 'url-password',
      // The password of `scheme://user:password@host`.
      pattern: /\b([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:/?#@]{1,256}:)[^\s/?#@]{1,256}@/gi,
      replacement: '$1[REDACTED]@',
    },
  ].map((rule) => Object.freeze(rule)),
);

import { describe, expect, it } from 'vitest';
import { headerValue } from './headerValue.js';

describe('headerValue (the 2026-07-28 transport page examples)', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['', '=?base64??='],
    ['a\tb', 'a\tb'],
  ])('%j is sent as %j', (value, sent) => {
    expect(headerValue(value)).toBe(sent);
  });
});

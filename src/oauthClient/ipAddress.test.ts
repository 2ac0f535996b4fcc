import { describe, expect, it } from 'vitest';
import { addressKind } from './ipAddress.js';

describe('addressKind', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'reserved'],
    ['fd12:3456::1', 'private'],
    ['fe80::1%eth0', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['[::ffff:a9fe:a9fe]', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2001:4860:4860::8888', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each(['example.com', '1.2.3', '1.2.3.256', '1::2::3', 'gggg::1'])(
    '%s is not an address',
    (text) => {
      expect(addressKind(text)).toBeUndefined();
    },
  );
});

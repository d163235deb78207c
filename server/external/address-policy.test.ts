// Which addresses count as public for a facilitator's service URL (decisions-server.md §41).
import { describe, expect, it } from 'vitest';
import { AddressRefusedError, isPublicAddress, publicAddresses } from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.1',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::7f00:1',
    // IPv4-compatible (::/96): `http://[::127.0.0.1]` is `[::7f00:1]` once parsed as a URL.
    '::127.0.0.1',
    '::7f00:1',
    '::a00:1',
    '::8.8.8.8',
    '::ffff:0:7f00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'not an address',
    '',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    'admits %s',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
});

describe('publicAddresses', () => {
  const answering = (...addresses: string[]) =>
    (async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))) as never;

  it('refuses a name when any of its addresses is private, and localhost names whatever the resolver says', async () => {
    await expect(publicAddresses('mixed.example', answering('93.184.216.34', '10.1.2.3'))).rejects.toBeInstanceOf(
      AddressRefusedError,
    );
    await expect(publicAddresses('api.localhost', answering('93.184.216.34'))).rejects.toBeInstanceOf(
      AddressRefusedError,
    );
    await expect(publicAddresses('[::1]')).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(publicAddresses(new URL('http://[::127.0.0.1]/hook').hostname)).rejects.toBeInstanceOf(
      AddressRefusedError,
    );
    expect(await publicAddresses('deals.example', answering('93.184.216.34'))).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    expect(await publicAddresses('[2606:4700:4700::1111]')).toEqual([{ address: '2606:4700:4700::1111', family: 6 }]);
  });
});

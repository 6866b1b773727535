// RFC 6238 codes (SHA-1, 6 digits, 30 s) for the authenticator-app step of browser tests.
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(secret: string): Buffer {
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) {
    const v = BASE32.indexOf(ch);
    if (v < 0) throw new Error('TOTP secret is not base32');
    bits += v.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((b) => parseInt(b, 2)));
}

/** The code an authenticator app shows for secret at time (ms since the epoch). */
export function totp(secret: string, time = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(time / 1000 / 30)));
  const sum = createHmac('sha1', base32(secret)).update(counter).digest();
  const off = sum[sum.length - 1]! & 0x0f;
  return String((sum.readUInt32BE(off) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** The seeded staff login's secret, from `aporta seed`'s summary. */
export function seededStaffSecret(seedOutput: string): string {
  const secret = /TOTP\) secret ([A-Z2-7]+)/.exec(seedOutput)?.[1];
  if (!secret) throw new Error('aporta seed printed no staff TOTP secret');
  return secret;
}

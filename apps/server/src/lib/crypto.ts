import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Session tokens: 32 random bytes; only their SHA-256 is stored. */
export const newToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A six-digit verification code. */
export const newAuthCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, '0');

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
// Algorithm.Argon2id is 2 (a const enum, not importable under verbatimModuleSyntax).
const ARGON = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON);
export const verifyPassword = async (stored: string, password: string): Promise<boolean> => {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
};

/** A real hash of a random password, verified against when the login ID is unknown (same timing). */
let dummyHash: Promise<string> | null = null;
export const dummyVerify = async (password: string): Promise<void> => {
  dummyHash ??= hashPassword(newToken());
  await verifyPassword(await dummyHash, password);
};

/** AES-256-GCM for secrets at rest (integration tokens, bot passwords), keyed from SECRET_KEY. */
export function secretBox(secretKey: string) {
  const key = createHash('sha256').update(`secret-box:${secretKey}`).digest();
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        'v1',
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        data.toString('base64url'),
      ].join('.');
    },
    open(sealed: string): string {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** Shows only the last characters of a secret: `••••••abcd`. */
export const mask = (secret: string): string => '••••••' + secret.slice(-4);

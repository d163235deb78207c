// Bearer secrets (session cookies, enrollment tokens): 32 random bytes, base64url. The store
// keeps only their SHA-256, so reading the database (or a backup of it) logs nobody in.
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const randomToken = (): string => randomBytes(32).toString('base64url');

export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

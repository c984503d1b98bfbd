// node:crypto on first use, not when a module that may need it is loaded. Every command loads every
// adapter, and loading node:crypto (with the streams it pulls in) costs about 10 ms of a command
// that hashes nothing and draws no random id: only Connect, forks and Gemini's project folders do.
import type * as NodeCrypto from 'node:crypto';

const crypto = (): typeof NodeCrypto => process.getBuiltinModule('node:crypto');

export const sha256Hex = (text: string): string => crypto().createHash('sha256').update(text).digest('hex');

export const randomUUID = (): string => crypto().randomUUID();

export const randomBytes = (size: number): Buffer => crypto().randomBytes(size);

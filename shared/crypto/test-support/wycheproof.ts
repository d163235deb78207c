// Flattens the Wycheproof Ed25519 file into (key, message, signature, expected verdict) cases,
// shared by the noble, node:crypto and WebCrypto verdict tests.
import { readVectorJson } from '../../test-support/vectors';
import { fromHex } from '../bytes';

interface WycheproofFile {
  testGroups: {
    publicKey: { pk: string };
    tests: { tcId: number; comment: string; msg: string; sig: string; result: 'valid' | 'invalid' }[];
  }[];
}

export interface VerdictCase {
  readonly tcId: number;
  readonly comment: string;
  readonly publicKey: Uint8Array;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
  readonly expected: boolean;
}

export function loadWycheproofCases(): VerdictCase[] {
  const file = readVectorJson<WycheproofFile>('ed25519/wycheproof_ed25519_test.json');
  return file.testGroups.flatMap((group) =>
    group.tests.map((t) => ({
      tcId: t.tcId,
      comment: t.comment,
      publicKey: fromHex(group.publicKey.pk),
      message: fromHex(t.msg),
      signature: fromHex(t.sig),
      expected: t.result === 'valid',
    })),
  );
}

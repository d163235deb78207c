// What the identity screens do, as mutations that keep the session and stored-identity caches
// right: the session query is the one owner of "who is signed in".
import type { DidKey } from '@shared/crypto/did-key';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { postLogout } from '@web/lib/api/auth-logout';
import type { OperatorSession } from '@shared/contract/auth';
import { sessionQuery } from '@web/lib/api/auth-session';
import { storedIdentityQuery } from '@web/lib/identity/identity-queries';
import type { IdentitySummary } from '@web/lib/identity/identity-store';
import { createKeyWithBackup, restoreBackup, type KeyCreation } from '@web/lib/identity/key-backup-actions';
import { downloadTextFile } from '@web/lib/identity/download-file';
import { enroll, signIn } from '@web/lib/identity/sign-challenge';

const KEEP_ON_SIGN_OUT = new Set(['auth', 'identity', 'health']);

function setSession(client: QueryClient, session: OperatorSession | null) {
  client.setQueryData(sessionQuery.queryKey, session);
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'login'],
    mutationFn: () => signIn(),
    onSuccess: (session) => setSession(client, session),
  });
}

export function useEnroll(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'enroll'],
    mutationFn: (name?: string) => enroll(token, undefined, name),
    onSuccess: (session) => setSession(client, session),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'logout'],
    mutationFn: postLogout,
    // A failed logout call still leaves this tab signed out; the cookie expires on its own.
    onSettled: () => {
      setSession(client, null);
      // Data read under the previous operator's session is not kept for the next one.
      client.removeQueries({ predicate: (query) => !KEEP_ON_SIGN_OUT.has(String(query.queryKey[0])) });
    },
  });
}

/**
 * Makes this browser's key with its encrypted backup and saves the file at once: the key's bytes
 * exist only during this call, so the backup cannot be made later (decisions-web.md §19).
 */
export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    // The passphrase is this mutation's variable: dropped from the cache as soon as the form goes.
    gcTime: 0,
    mutationFn: ({ passphrase, replacing }: { passphrase: string; replacing?: DidKey }) =>
      createKeyWithBackup(passphrase, replacing === undefined ? {} : { replacing }),
    onSuccess: ({ identity, backup }: KeyCreation) => {
      if (backup) downloadTextFile(backup.fileName, backup.text);
      client.setQueryData(storedIdentityQuery.queryKey, identity);
    },
  });
}

export function useRestoreBackup() {
  const client = useQueryClient();
  return useMutation({
    gcTime: 0,
    mutationFn: ({ text, passphrase }: { text: string; passphrase: string }) => restoreBackup(text, passphrase),
    onSuccess: (identity: IdentitySummary) => client.setQueryData(storedIdentityQuery.queryKey, identity),
  });
}

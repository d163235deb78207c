// /api/directory/imports: A2A agents imported into the directory by their Agent Card URL; shapes:
// shared/contract/directory-imports.ts.
import { queryOptions } from '@tanstack/react-query';
import { ImportDone, ImportedAgentList } from '@shared/contract/directory-imports';
import { deleteEmpty, getJson, postJson } from './http';

export type { ImportedAgentView, ImportedSkill } from '@shared/contract/directory-imports';

const base = '/api/directory/imports';
export const IMPORTS_KEY = ['directory', 'imports'] as const;

export const importedAgentsQuery = queryOptions({
  queryKey: IMPORTS_KEY,
  queryFn: ({ signal }) => getJson(base, ImportedAgentList, { signal }),
});

/** Imports the card at `url`, or fetches it again when the URL is imported already. */
export const importAgent = (url: string) => postJson(base, { url }, ImportDone);

export const removeImportedAgent = (id: string) => deleteEmpty(`${base}/${encodeURIComponent(id)}`);

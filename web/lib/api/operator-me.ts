// PATCH /api/me {name}: the display name other operators see; answers who you are now.
import { Me } from '@shared/contract/operators';
import { getJson } from './http';

export const setMyName = (name: string): Promise<Me> =>
  getJson('/api/me', Me, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });

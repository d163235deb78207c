// POST /api/auth/logout: ends the session (204).
import { postEmpty } from './http';

export const postLogout = (): Promise<void> => postEmpty('/api/auth/logout');

// An operators row as both engines read it.
import type { Operator, OperatorRole } from '../store';

export interface OperatorRow {
  did: string;
  role: OperatorRole;
  created_at: number;
  name: string | null;
}

export const toOperator = (row: OperatorRow): Operator => ({
  did: row.did,
  role: row.role,
  createdAt: Number(row.created_at),
  name: row.name,
});

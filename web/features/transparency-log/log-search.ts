// `/transparency-log?entry=3` points at one entry (the detail view links its agreement's entry).
export function parseLogSearch(search: Record<string, unknown>): { entry?: number } {
  const entry = Number(search['entry']);
  return Number.isInteger(entry) && entry >= 0 ? { entry } : {};
}

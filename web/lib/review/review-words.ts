// A review's subject in words, shared by a room's review queue and the inbox (decisions-web.md §32).

/** "4 of 6 messages left on the grant"; "no message left on the grant" when spent. */
export function budgetLeftWords(left: number, max?: number): string {
  const n = Math.max(0, left);
  if (n === 0) return 'no message left on the grant';
  const of = max === undefined ? '' : ` of ${max}`;
  return `${n}${of} ${(max ?? n) === 1 ? 'message' : 'messages'} left on the grant`;
}

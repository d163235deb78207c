// `/?item=<id>`: the inbox opened on one item (a notification's click, a shared link).
export interface InboxSearch {
  readonly item?: string;
}

export function parseInboxSearch(search: Record<string, unknown>): InboxSearch {
  const item = search['item'];
  return typeof item === 'string' && item.length > 0 && item.length <= 512 ? { item } : {};
}

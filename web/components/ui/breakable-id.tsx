// An identifier in a table cell that may wrap only where people read a break: after a dot,
// hyphen, underscore, slash or colon (`agent.` / `researcher`), never mid-word
// (decisions-web.md §40). A cell showing it uses `[overflow-wrap:break-word]`, which leaves the
// column's minimum width at the longest part, so the table widens rather than splitting a word.
import { Fragment } from 'react';
import { displayText } from '@web/lib/display-text';

export function BreakableId({ id }: { id: string }) {
  const parts = displayText(id).split(/(?<=[._\-/:])/u);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

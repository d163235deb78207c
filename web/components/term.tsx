// A protocol word said in plain words, the protocol's own term kept in a tooltip for those who
// read the spec or the inspector (decisions-web §30).
export function Term({ words, term, className }: { words: string; term: string; className?: string }) {
  return (
    <abbr title={term} className={`cursor-help no-underline decoration-dotted hover:underline ${className ?? ''}`}>
      {words}
    </abbr>
  );
}

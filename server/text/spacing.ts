// Whitespace runs as one space: what prose reading does to every line of every page. Only runs that
// are not already one space are rewritten (most lines hold single spaces only), which is about three
// times faster than rewriting every run.

/** A run of two or more whitespace characters, or one that is not a space. */
const RESPACE = /\s{2,}|[^\S ]/g

/** `text.replace(/\s+/g, ' ')`, rewriting only the runs that change. */
export function singleSpaced(text: string): string {
  return text.replace(RESPACE, ' ')
}

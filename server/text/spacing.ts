// Whitespace runs as one space: what prose reading does to every line of every page, so it skips
// the rewrite when there is nothing to rewrite (most lines hold only single spaces).

/** Two whitespace characters in a row, or one that is not a space. */
const RESPACE = /\s\s|[^\S ]/u

/** `text.replace(/\s+/g, ' ')`, without rebuilding text that has only single spaces. */
export function singleSpaced(text: string): string {
  return RESPACE.test(text) ? text.replace(/\s+/g, ' ') : text
}

// Whitespace runs as one space: what prose reading does to every line of every page. Most lines hold
// single spaces only, and a loop over the characters finds that at a fraction of what the regular
// expression costs; a text with anything to rewrite is rewritten by the expression.

/** A run of two or more whitespace characters, or one that is not a space. */
const RESPACE = /\s{2,}|[^\S ]/g

/** `text.replace(/\s+/g, ' ')`, rewriting only the runs that change. */
export function singleSpaced(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x20 ? isWhitespace(text.charCodeAt(i + 1)) : isWhitespace(code)) return text.replace(RESPACE, ' ')
  }
  return text
}

/** The code units `\s` matches (ECMAScript's WhiteSpace and LineTerminator). */
export function isWhitespace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d)
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  )
}

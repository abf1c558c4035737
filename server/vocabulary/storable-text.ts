// Text Postgres can store. A NUL character (U+0000) fails any text or jsonb write, and an unpaired
// surrogate fails a jsonb write (JSON.stringify escapes it as "\ud800", which jsonb refuses): either
// would be a 500 instead of a refused input. Schemas of text that gets stored check it at the edge.

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain the NUL character (U+0000) or an unpaired surrogate'

const UNPAIRED_SURROGATE = /\p{Cs}/u

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text)
}

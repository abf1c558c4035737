// Postgres text and jsonb cannot hold U+0000: a string carrying one fails the insert, a 500, instead
// of being refused as input. Schemas of text that gets stored refuse it at the edge with this check.

export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)'

export function hasNoNul(text: string): boolean {
  return !text.includes('\u0000')
}

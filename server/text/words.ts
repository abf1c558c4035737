// The word tokenizer every part shares: memory search, topic comparison, claim terms, the engine's
// ranking. Text in, words out; it knows nothing of what the words are for.

// A fixed locale so results do not depend on the host's default; ICU's word breaks (dictionaries for
// CJK and Thai included) do not vary by locale for the scripts facts are written in.
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' })

/**
 * Lower-cased, NFKC-normalized word tokens in text order. NFKC runs first so full-width Latin and
 * compatibility forms segment like their plain forms; segmentation rather than splitting on spaces
 * lets Chinese and Japanese text yield words.
 */
export function wordTokens(text: string): string[] {
  const tokens: string[] = []
  for (const { segment, isWordLike } of wordSegmenter.segment(text.normalize('NFKC').toLowerCase())) {
    if (isWordLike) tokens.push(segment)
  }
  return tokens
}

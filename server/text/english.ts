// English as wink-nlp reads it (its npm-shipped lite model): one reader for the process, loaded on
// first use (about 230 ms and 60 MB), so a process that never reads a claim never pays for it.
// Decision 034 says why this library and what it is used for.

import model from 'wink-eng-lite-web-model'
import winkNLP from 'wink-nlp'

let reader: ReturnType<typeof winkNLP> | undefined

export function english(): ReturnType<typeof winkNLP> {
  reader ??= winkNLP(model, ['pos'])
  return reader
}

export function nlpIts(): ReturnType<typeof winkNLP>['its'] {
  return english().its
}

/** The words of a sentence's opening that the tagger reads to tag its first word. */
const OPENING_WORDS = 5

/** Whether the tagger reads a sentence's first word as a proper noun ("Voltfjord will", not "First production"). */
export function opensWithName(sentence: string): boolean {
  // The opening words are enough to tag the first one, and cheaper to read than the whole sentence.
  const opening = sentence.split(/\s+/u).slice(0, OPENING_WORDS).join(' ')
  const tags = english().readDoc(opening).tokens().out(nlpIts().pos) as string[]
  return tags.find((tag) => tag !== 'PUNCT') === 'PROPN'
}

/** A text's tokens as the tagger reads them: each as written, its part of speech and its lemma. */
export function taggedTokens(text: string): Array<{ word: string; tag: string; lemma: string }> {
  const tokens = english().readDoc(text).tokens()
  const tags = tokens.out(nlpIts().pos) as string[]
  const lemmas = tokens.out(nlpIts().lemma as never) as string[]
  return (tokens.out() as string[]).map((word, index) => ({
    word,
    tag: tags[index] ?? '',
    lemma: lemmas[index] ?? word,
  }))
}

/** Whether the tagger reads a word as a noun's plural ("Members", "Shareholders"; not "Brereton", "Davies"). */
export function isPluralNoun(word: string): boolean {
  const lower = word.toLowerCase()
  const read = taggedTokens(`the ${lower}`)[1]
  return read?.tag === 'NOUN' && read.lemma !== lower
}

/**
 * `read` remembered for each key, as a run reads the same words and phrases again and again;
 * forgotten all at once past `limit` keys.
 */
function remembered<T>(limit: number, read: (key: string) => T): (key: string) => T {
  const memory = new Map<string, T>()
  return (key) => {
    if (memory.has(key)) return memory.get(key) as T
    const value = read(key)
    if (memory.size >= limit) memory.clear()
    memory.set(key, value)
    return value
  }
}

/**
 * The base form of a word the tagger reads alone as a verb ("heard" is "hear", "sold" "sell",
 * "built" "build"), or the word itself: the irregular forms no rule of endings finds. Remembered for
 * up to 50,000 words.
 */
export const verbBase = remembered(50_000, (word) => {
  const [read] = taggedTokens(word)
  return read?.tag === 'VERB' && read.lemma ? read.lemma : word
})

/**
 * Whether every word of a noun phrase but its last is a noun that says what kind, as the tagger reads
 * them ("teaching posts", "PCSO roles", "police community support officer posts"; a gerund such as
 * "charging" too), not an adjective that says which ("junior members"). Remembered for up to 10,000
 * phrases.
 */
export const classifiedNounPhrase = remembered(10_000, (phrase) =>
  taggedTokens(`the ${phrase}`)
    .slice(1, -1)
    .every(
      ({ word, tag }) => tag === 'NOUN' || tag === 'PROPN' || (tag === 'VERB' && word.endsWith('ing')) || word === '-',
    ),
)

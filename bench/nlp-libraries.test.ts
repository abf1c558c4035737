// The parts of bench/nlp-libraries.ts that both libraries' readers share: the stance lexicon, how a
// verb and its particle find a stance, how a negated stance turns round, and the noun a number counts.
import { expect, test } from 'vitest'
import {
  countedNoun,
  STANCE_PHRASALS,
  STANCE_VERBS,
  stanceOfVerb,
  stancePolarity,
  type VerbReading,
} from '#bench/nlp-libraries.ts'

test('a verb lemma finds its stance, and a particle after it (or after a pronoun) makes a phrasal verb', () => {
  expect(stanceOfVerb('approve', ['the', 'plan'])).toBe('up')
  expect(stanceOfVerb('scrap', [])).toBe('down')
  expect(stanceOfVerb('vote', ['down', 'the'])).toBe('down')
  expect(stanceOfVerb('vote', ['it', 'down'])).toBe('down')
  expect(stanceOfVerb('vote', ['for', 'the'])).toBeUndefined()
  expect(stanceOfVerb('turn down', [])).toBe('down')
  expect(stanceOfVerb('back', ['the', 'plan'])).toBe('up')
  expect(stanceOfVerb('back', ['out', 'of'])).toBe('down')
  expect(stanceOfVerb('go', ['ahead', 'with'])).toBe('up')
  expect(stanceOfVerb('say', ['that'])).toBeUndefined()
})

test('no lemma or phrasal verb is on both sides of the lexicon', () => {
  const verbs = [...STANCE_VERBS.keys()]
  expect(new Set(verbs).size).toBe(verbs.length)
  for (const phrase of STANCE_PHRASALS.keys()) expect(phrase.split(' ')).toHaveLength(2)
})

const verb = (lemma: string, negated = false, following: string[] = []): VerbReading => ({ lemma, following, negated })

test('a negated stance verb turns round; verbs pointing both ways say nothing of stance', () => {
  expect(stancePolarity([verb('approve')], false).polarity).toEqual({ negated: false, directions: ['stance:up'] })
  expect(stancePolarity([verb('approve', true)], true).polarity).toEqual({
    negated: false,
    directions: ['stance:down'],
  })
  expect(stancePolarity([verb('approve'), verb('reject')], false).polarity).toEqual({
    negated: false,
    directions: [],
  })
  expect(stancePolarity([verb('say')], true).polarity).toEqual({ negated: true, directions: [] })
  expect(stancePolarity([verb('vote', false, ['down'])], false).evidence).toEqual(['vote(down):down'])
})

test('a number counts the last noun of the run after it, past adjectives and numbers', () => {
  expect(
    countedNoun([
      { kind: 'adj', lemma: 'new' },
      { kind: 'noun', lemma: 'parking' },
      { kind: 'noun', lemma: 'bay' },
      { kind: 'other', lemma: 'would' },
    ]),
  ).toBe('bay')
  expect(
    countedNoun([
      { kind: 'other', lemma: 'of' },
      { kind: 'noun', lemma: 'staff' },
    ]),
  ).toBe('')
  expect(countedNoun([])).toBe('')
})

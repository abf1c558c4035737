// Facts from text: a claim read by the same rules the engine uses (figures, dates, subject, polarity),
// for contributions made outside a run and for facts stored before memory kept claims.
import { z } from 'zod'
import { extractStatements } from '#server/claims/figures.ts'
import { polarity, subjectTerms } from '#server/claims/subject.ts'
import type { ContributedFact, Fact } from '#server/topics/contract.ts'
import { PolaritySchema, StatementsSchema, type StoredFact } from '#server/vocabulary/memory.ts'

/** A new fact stating `text`, supported by `quote` on `sourceUrls`. */
export function contributedFact(text: string, sourceUrls: string[], quote = ''): ContributedFact {
  return { ...readClaim(text), text, quote, sourceUrls, change: { class: 'new' } }
}

/** What a claim's words state: figures and dates, subject, polarity. */
export function readClaim(text: string): Pick<Fact, 'statements' | 'subject' | 'polarity'> {
  return { statements: extractStatements(text), subject: subjectTerms(text), polarity: polarity(text) }
}

/**
 * The edition of the rules that read a stored fact's figures, subject and polarity. Raise it when
 * those rules change (a new stance word, a fixed negation): facts read by an older edition are read
 * again when memory is next loaded, so old and new claims are compared by the same rules. 3: a stance
 * is read only from a verb or an adjective, as wink-nlp tags them (decision 034). 4: a stance word
 * used as a noun ("five new stops") is part of the subject, and counts written in words are not. 5:
 * phrasal verbs and irregular forms take a stance, and the main clause's stance wins over a
 * subordinate clause's. 6: counts written in words with a scale ("six hundred people") are figures.
 * 7: a subject's terms are Lancaster roots of a word's most frequent sense ("production" and
 * "producing" are one, as are "teenagers" and "adolescents"), and "the final
 * quarter", "the latter half" are dates. 8: a party that binds itself ("pledged", "promised",
 * "committed") takes a stance, "not until June" says when, not whether, a small count written in words before what it
 * counts ("five stops") is a figure, and a month with no year ("moved to September") is a date.
 * 9: a date after a weekday and its comma ("is now Tuesday, Sept. 8"), and a number word in a name
 * ("League Two club") is no count. 10: a measure is read in one unit of its kind ("3,100 megalitres"
 * is "3.1 billion litres", "40kt" is "40,000 tonnes", a rate in time is its quantity), a unit after
 * a hyphen is its unit ("a 22-year life"), "three in five" is a share, "the 2028-29 season" a date,
 * a change denied ("does not change the price", "has not risen") is no negation, a negated phrase
 * turns round its own clause's stance ("failed to win approval"), and freezing is a stance. 11
 * (decisions 045 and 046): a stance taken on a stance, by a verb or a noun of its object, is one
 * stance, its signs multiplied ("refused to restart", "scrapped its closure proposal"); appeals,
 * challenges and waivers are stances, and "walks away", "calls off", "brought back" are read in every
 * form; seasons of a year are dates, and a range of dates states both ends; a bare number answering
 * a figure counts what that one counts; a rough or bounded figure ("just over £21m", "nearly four in
 * five") stands for a range; a measure joined by a hyphen to a count in words ("an eleven-mile
 * ride") is read; WordNet's most frequent sense names a word's subject term. 12 (decision 047):
 * "pulled the plug on", "off the table", "on hold" and "on ice" call a thing off, and a count
 * qualified by a word such as "new" or "extra" counts that word with its noun ("new homes"). 13
 * (decision 048): what a quantity was ("down from the 120") is marked as such, and a number answering
 * an earlier figure answers the quantity, not a length of time between them; "fourteen and a half
 * million" is one number; a part after a possessive ("two of the company's directors") counts the
 * noun, and an auxiliary after a number is no counted noun; an irregular form is its verb's base in
 * a subject ("heard" is "hear", "sold" "sell"). 14 (decision 049): tonnes per annum ("240ktpa") are
 * tonnes; nouns before a counted noun say its kind ("40 PCSO roles" counts roles); a word read more
 * often as an adjective is not folded by a noun's sense ("full"); a negation inside an "if" clause, or
 * left in a clause "but" sets aside, is not the sentence's. 15 (decision 050): a "not" set after its
 * clause before no verb ("in February 2027, not October 2026") denies the alternative it names, not
 * the clause. 16 (decision 053): loudness in decibels ("65 dB"); "rather than" and "instead of" are no
 * counted noun; "mid-February" is a month. 17 (decision 054): a verb of deciding makes the stance it
 * governs a decision ("voted last month to end", "decided not to renew"), and a vote has a side
 * ("voted against the plan"). 18: a comparative before a counted noun counts the noun ("72 larger
 * turbines"), and an opposition dropped accepts ("dropped its opposition"). 19 (decision 055): a verb
 * taking its object through a preposition, and a phrasal verb, govern what the object is for ("not
 * proceed with the proposal to close", "go ahead with a plan to close"); a state held "until" a time,
 * and what an "if" clause supposes, take no stance; an ordinal is a rank, not a figure ("the 400th
 * home"), and "the 21st of May" a day; a symbol or a name in WordNet ("Mt", "Db") folds no word
 * ("tonne", "dB"). 20 (decision 056): a process that opens or closes as it runs its course takes
 * no stance ("the consultation will now close on 25 April", "the ballot closes on Friday").
 */
export const READING = 20

export type { StoredFact }

/** The fact's readings, when today's edition made them and they are the shape it makes. */
function currentReadings(stored: StoredFact): Pick<Fact, 'statements' | 'subject' | 'polarity'> | undefined {
  if (stored.readWith !== READING) return undefined
  const statements = StatementsSchema.safeParse(stored.statements)
  const subject = SubjectSchema.safeParse(stored.subject)
  const polarity = PolaritySchema.safeParse(stored.polarity)
  if (!statements.success || !subject.success || !polarity.success) return undefined
  return { statements: statements.data, subject: subject.data, polarity: polarity.data }
}

/**
 * A fact as stored, in today's shape: one stored before claims (id, text, sources, first seen) reads
 * as a claim without a quote, and one read by an older edition of the rules is read again.
 */
export function upgradeFact(stored: StoredFact): Fact {
  const { statements: _statements, subject: _subject, polarity: _polarity, ...kept } = stored
  return {
    ...kept,
    quote: stored.quote ?? '',
    lastConfirmed: stored.lastConfirmed ?? stored.firstSeen.at,
    ...(currentReadings(stored) ?? readClaim(stored.text)),
    readWith: READING,
  }
}

const SubjectSchema = z.array(z.string())

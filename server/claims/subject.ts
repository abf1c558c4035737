// What a claim is about, apart from what it says of it. "Cells cost $90/kWh" and "cells cost $80/kWh"
// share a subject (cell, cost) and differ in a figure; "sales rose" and "sales fell" share a subject
// and are opposed. So the subject is the claim's content words, stemmed, without its figures, dates,
// negations and words of direction; those are read separately as its polarity.
import { lancasterStemmer } from 'lancaster-stemmer'
import { stemmer } from 'stemmer'
import { STOPWORDS } from '#server/claims/terms.ts'
import WORDNET from '#server/claims/wordnet-synonyms.json' with { type: 'json' }
import { taggedTokens, verbBase } from '#server/text/english.ts'
import { baseForms } from '#server/text/inflections.ts'
import { wordTokens } from '#server/text/words.ts'

// Words that flip a statement. "n't" is split off by the word segmenter as part of the token ("isn't").
const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'neither', 'nor', 'without', 'cannot', 'nobody', 'nothing'])
const NEGATED_PHRASES =
  /\b(?:no longer|fail(?:s|ed)? to|rul(?:es|ed|ing) out|call(?:s|ed|ing) off|walk(?:s|ed|ing) away|pull(?:s|ed|ing) out|pull(?:s|ed|ing)? the plug|off the table|on (?:hold|ice))\b/gu

// Pairs of opposed directions, by stem. Two axes: a trend (rose / fell) and a stance, where going
// ahead, approving, passing and winning stand against stopping, rejecting, failing and cancelling
// ("signed a contract" / "cancelled the contract", "passed certification" / "failed it").
// A Map, not an object: a word such as "constructor" must not find Object.prototype's.
const DIRECTIONS = new Map<string, string>()
for (const [axis, up, down] of [
  [
    'trend',
    'rise rose risen increas grew grow grown climb gain jump surg soar up higher expand boost doubl tripl',
    'fall fell fallen decreas declin drop dip shrank shrink slump plung down lower contract cut reduc trim slash halv narrow',
  ],
  [
    'stance',
    'approv accept pass grant authoris authoriz allow sign agre ratifi clear certifi elig qualifi ' +
      'valid open start launch begin began resum restart proceed extend renew continu win won ' +
      'succeed profit beat back endors support favour favor award sanction adopt upheld uphold reinstat restor defend ' +
      // Commissives: a party binds itself ("pledged £2.5m", "promised to keep every branch open").
      'pledg promis commit vow guarante',
    'reject deni deny block veto ban refus prohibit forbid withdraw withdrew withdrawn revok overturn close closur shut stop cancel halt end ' +
      'suspend paus abandon scrap shelv termin collaps expir laps lose lost fail loss miss oppos bar rescind repeal ' +
      'quash annul void axe ditch kill overrul freez froze frozen waiv contest challeng appeal',
  ],
] as const) {
  for (const stem of up.split(' ')) DIRECTIONS.set(stem, `${axis}:up`)
  for (const stem of down.split(' ')) DIRECTIONS.set(stem, `${axis}:down`)
}
/** Trend words that say a change only as verbs. */
const VERBS_ONLY = new Set(['narrow', 'doubl', 'tripl', 'halv'])
// Phrasal verbs of stance: a verb and its particle, read together ("voted down" rejects; the "down"
// alone would read as a fall). The verb is a lemma, so "threw out" and "struck down" are found too.
// ("Walks away", "pulled out", "ruling out", "called off" are negations: NEGATED_PHRASES. Their bare
// forms are read here, as a stance that another may govern: "refused to pull out".)
const PHRASAL_STANCES = new Map<string, string>([
  ...[
    'go ahead',
    'press ahead',
    'push ahead',
    'vote through',
    'wave through',
    'sign off',
    'stand by',
    'bring back',
    'apply for',
  ].map((phrase) => [phrase, 'stance:up'] as const),
  ...[
    'vote down',
    'turn down',
    'throw out',
    'strike down',
    'back out',
    'walk back',
    'shut down',
    // Their other forms are negations (NEGATED_PHRASES); the bare verb after "to" is read with it.
    'call off',
    'walk away',
    'pull out',
    'rule out',
  ].map((phrase) => [phrase, 'stance:down'] as const),
])

// A negative prefix turns a stance word round: "ineligible", "unapproved", "disallowed", "invalid".
const NEGATIVE_PREFIX = /^(?:un|in|im|il|ir|dis|non)-?/u

function direction(token: string, stem: Stem, stemmed = stem(token)): string | undefined {
  const plain = DIRECTIONS.get(stemmed) ?? DIRECTIONS.get(token)
  if (plain) return plain
  const prefix = NEGATIVE_PREFIX.exec(token)?.[0]
  if (!prefix) return undefined
  const rest = token.slice(prefix.length)
  const flipped = rest.length >= 4 ? (DIRECTIONS.get(stem(rest)) ?? DIRECTIONS.get(rest)) : undefined
  if (!flipped?.startsWith('stance:')) return undefined
  return flipped.endsWith(':up') ? 'stance:down' : 'stance:up'
}

const MONTH_WORDS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec quarter'.split(
    ' ',
  ),
)
const UNIT_WORDS = new Set(
  'percent per cent pct dollar dollars usd eur euro euros gbp pound pounds yen yuan thousand million billion trillion bn mn kwh mwh gwh twh kw mw gw'.split(
    ' ',
  ),
)

/** Counts written as words: figures, not what a claim is about ("five new stops rather than six"). */
const NUMBER_WORDS = new Set(
  'zero two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred dozen'.split(
    ' ',
  ),
)

export type Polarity = { negated: boolean; directions: string[] }

/** A word's stem: the stemmer, or one that remembers (stemsOnce) for many texts of one check. */
export type Stem = (word: string) => string

/** The stemmer, remembering each word's stem: for the claims of one run, which share most words. */
export function stemsOnce(): Stem {
  const stems = new Map<string, string>()
  return (word) => {
    let stemmed = stems.get(word)
    if (stemmed === undefined) {
      stemmed = stemmer(word)
      stems.set(word, stemmed)
    }
    return stemmed
  }
}

/** The content words of a claim that name what it is about, as roots (see below). */
export function subjectTerms(text: string, stem: Stem = stemmer): string[] {
  return [...new Set(subjectRun(text, stem).flatMap(({ term }) => (term === null ? [] : [term])))]
}

/**
 * The pairs of subject terms a text writes side by side, with no other word between ("the glass
 * harbour wing", "a drought permit"): a thing named in two words is named more surely than by two
 * words anywhere in a sentence. Not a name ("Harbrook Mutual", "Cinderbrook Lithium"): whoever it
 * names takes many decisions, and each is another thing.
 */
export function subjectPhrases(text: string, stem: Stem = stemmer): string[] {
  // Any stance word parts two terms: tagging which take a stance here is not worth its time for this.
  const run = subjectRun(text, stem, false)
  const capitalised = new Set(
    (text.normalize('NFKC').match(/(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}]*/gu) ?? []).map((word) => word.toLowerCase()),
  )
  const phrases = new Set<string>()
  for (let index = 1; index < run.length; index++) {
    const [before, next] = [run[index - 1], run[index]]
    if (!before?.term || !next?.term || before.term === next.term) continue
    if (capitalised.has(before.token) && capitalised.has(next.token)) continue
    phrases.add(`${before.term} ${next.term}`)
  }
  return [...phrases]
}

/**
 * A text's words in order, each with its subject term, or null where the word is none. A stance word
 * is a term where it takes no stance (`tagStance`), or never.
 */
function subjectRun(text: string, stem: Stem, tagStance = true): Array<{ token: string; term: string | null }> {
  // "California's" is about California.
  let taken: Set<string> | undefined
  return wordTokens(withoutNegatedPhrases(text))
    .map((word) => word.replace(/['’]s$/u, ''))
    .map((token, index, tokens) => ({ token, term: subjectTerm(token, tokens[index - 1]) }))

  function subjectTerm(token: string, before: string | undefined): string | null {
    if (STOPWORDS.has(token) || NEGATIONS.has(token) || token.endsWith("n't") || token.endsWith('n’t')) return null
    if (MONTH_WORDS.has(token) || UNIT_WORDS.has(token) || /\p{N}/u.test(token) || /^[a-z]$/.test(token)) return null
    if (NUMBER_WORDS.has(token)) return null
    const stemmed = stem(token)
    const way = direction(token, stem, stemmed)
    // A stance word that takes no stance here is what the claim is about: the "stops" of a tram line,
    // the "grant" a council awarded.
    if (way) {
      if (!way.startsWith('stance:') || !tagStance) return null
      taken ??= stanceTaking(text)
      if (taken.has(token)) return null
    }
    // The subject's terms are roots of a word's most frequent sense: "teenagers" are "adolescents",
    // and Lancaster folds what Porter keeps apart ("production" and "producing", "decision" and
    // "decided", "employees" and "employs"), as a reader does.
    // After a determiner the word is a noun ("its deal", "a grant", "the base").
    return lancasterStemmer(synonym(token, before !== undefined && DETERMINERS.has(before)))
  }
}

/** The words of a text that wink-nlp tags as able to take a stance (verbs and adjectives). */
function stanceTaking(text: string): Set<string> {
  return new Set(
    taggedWords(withoutNegatedPhrases(text))
      .filter(({ tag }) => STANCE_TAGS.has(tag))
      .map(({ word }) => word),
  )
}

export function polarity(text: string, stem: Stem = stemmer): Polarity {
  return readStance(text, stem).polarity
}

/**
 * A sentence's polarity, and whether its stance is a decision someone took (DECISIONS, a phrasal
 * verb of stance) rather than something that happened ("opened", "lost").
 */
function readStance(written: string, stem: Stem): { polarity: Polarity; decision: boolean } {
  const text = withoutTemporalNegation(written)
  const lower = text.normalize('NFKC').toLowerCase()
  // A negated phrase is read as one "not" where it stands, so that it turns round the stance word of
  // its clause as "not" does ("is no longer on track to open"); its own "no" is no second negation.
  let negations = 0
  // A negation counted in the main clause ("has called off its planned ballot after winning
  // concessions"): the sentence's own stance, which a stance said in passing does not outweigh.
  let mainNegation = false
  // Each direction read, and whether a word of decision gave it.
  const directions = new Map<string, boolean>()
  // Stances taken in a subordinate clause ("the permit that the board granted", "months after backing
  // the plan"): the sentence's own decision is its main clause's, when that takes one.
  const aside = new Map<string, boolean>()
  // What an "if" clause supposes: kept apart, and never read.
  const supposed = new Map<string, boolean>()
  // A stance under a modal of possibility ("could reject", "would oppose") is not yet taken.
  let hypothetical = false
  let taken = false
  const words = taggedWords(lower.replace(NEGATED_PHRASES, ' not '))
  const contrasts = CONTRASTED.test(lower)
  const particles = new Set<number>()
  // Gerunds after a word of approval ("approved dropping"): stances whatever the tagger calls them.
  const approved = new Set<number>()
  const note = (into: Map<string, boolean>, way: string, decision: boolean) =>
    into.set(way, (into.get(way) ?? false) || decision)
  let subordinate = false
  let subordinateVerb = false
  // A negation not yet spent on a stance word of its clause: "did not approve" is a refusal, one
  // stance, not an approval and a negation; the "not" of "was shelved and is not part of the plan"
  // belongs to another clause, and turns nothing round.
  let negation = false
  // A negation in a condition ("a gap of £14.6m if no action is taken") is the condition's: it may
  // turn round the condition's stance word, not the sentence, which asserts the rest.
  let counted = false
  let conditional = false
  // A stance asked for, or a decision appealed against, in this clause: pending (PENDING).
  let pending = false
  const stance = (way: string) => {
    if (!negation || !way.startsWith('stance:')) return way
    negation = false
    if (counted) negations -= 1
    return way.endsWith(':up') ? 'stance:down' : 'stance:up'
  }
  // A verb of deciding in the main clause ("decided not to close it", "voted to end births", "voted
  // against the plan"): the stance it governs is a decision someone took.
  let decided = false
  words.forEach(({ word: token, tag, lemma, pause }, index) => {
    if (pause) subordinate = conditional = false
    if (tag === 'VERB' && DECIDING.has(lemma) && !subordinate && !hypothetical) {
      const next = words[index + 1]
      // ("Voted last month to end births", "voted unanimously to", "voted 9-2 to".)
      if (next?.word === 'not' && words[index + 2]?.word === 'to') decided = true
      for (const ahead of words.slice(index + 1, index + 1 + DECIDING_REACH)) {
        if (ahead.pause || !REACHED_OVER.has(ahead.tag)) break
        if (ahead.word === 'to') decided = true
      }
      const side = next && !next.pause ? VOTED_ON.get(next.word) : undefined
      if (side) {
        note(directions, stance(side), true)
        taken = true
        particles.add(index + 1)
      }
    }
    if (pause || CLAUSE_JOINS.has(token)) {
      // "Neither company would put a price on the work, but the contract is worth about £65m": a
      // negation that turned no stance round is its clause's, and "but" asserts what follows.
      if (CONTRASTS.has(token) && negation && counted) negations -= 1
      negation = false
      hypothetical = false
      pending = false
    }
    // ("In May" is the month, not the modal.)
    if (MODALS.has(token) && !(token === 'may' && MONTH_PREPOSITIONS.has(words[index - 1]?.word ?? ''))) {
      hypothetical = true
    }
    // "In February 2027, not October 2026", "a pause, not a cancellation": a "not" set after the
    // clause, before no verb, denies the alternative it names; the clause asserts its own.
    const after = words[index + 1]
    const contrasting =
      contrasts && token === 'not' && pause && after !== undefined && after.word !== 'to' && !VERBAL.has(after.tag)
    if (!contrasting && (NEGATIONS.has(token) || token.endsWith("n't") || token.endsWith('n’t'))) {
      counted = !conditional
      if (counted) negations += 1
      if (counted && !subordinate && token !== 'without') mainNegation = true
      negation = true
    }
    if (particles.has(index)) return
    if (opensSubordinateClause(words, index)) {
      conditional = token === 'if'
      subordinate = true
      subordinateVerb = false
      negation = false
    } else if (subordinate && subordinateVerb && tag === 'AUX') {
      // The clause had its verb; an auxiliary after it is the main clause's ("the sign-off that the
      // authority won in March has since been withdrawn").
      subordinate = conditional = false
      negation = false
    }
    if (subordinate && tag === 'VERB') subordinateVerb = true
    // What an "if" clause supposes ("If the closure goes ahead, ...") is asserted by no one.
    const into = conditional ? supposed : subordinate ? aside : directions
    if (tag === 'VERB') {
      const phrasal = phrasalStance(lemma, words, index)
      if (phrasal && pending) {
        note(into, PENDING, true)
        if (!subordinate && !hypothetical) taken = true
        particles.add(phrasal.particle)
        return
      }
      if (phrasal) {
        const composed = withItsObject(phrasal, words, stem)
        note(into, stance(composed.way), true)
        if (!subordinate && !hypothetical) taken = true
        for (const skipped of composed.words) particles.add(skipped)
        return
      }
    }
    // An irregular form is read by its lemma: "withdrew" is "withdraw", "began" is "begin".
    let read = token
    let way = direction(token, stem)
    if (!way && lemma && lemma !== token) {
      read = lemma
      way = direction(lemma, stem)
    }
    // A contract shrinks only as a verb, and not in the passive: "the contract" is an agreement, and a
    // firm "is contracted to connect 14,200 homes" has been hired; "the economy contracted" fell.
    const hired =
      PASSIVE_BE.has(words[index - 1]?.word ?? '') ||
      (words[index + 1]?.word === 'to' && words[index + 2]?.tag === 'VERB')
    if (way === 'trend:down' && (tag !== 'VERB' || hired) && stem(read) === 'contract') way = undefined
    // A gap "narrowed", a deficit "doubled": verbs of change; "a narrow majority", "a double room" not.
    if (way?.startsWith('trend:') && tag !== 'VERB' && VERBS_ONLY.has(stem(read))) way = undefined
    // A process opens and closes on a date as it runs its course ("the consultation on the homes'
    // future will now close on 25 April", "the ballot closes on Friday"): no one decided anything.
    if (way?.startsWith('stance:') && (tag === 'VERB' || tag === 'ADJ') && RUNS_ITS_COURSE.has(stem(read))) {
      const subject = clauseSubject(words, index)
      if (subject && PROCESSES.has(subject)) way = undefined
    }
    // "Asked the court to overturn", "urged ministers to block it": the stance asked for is pending.
    if (tag === 'VERB' && REQUESTS.has(lemma)) pending = true
    // "Appealed against the council's refusal", "is challenging last week's ruling that halted the
    // permit": a decision contested still stands; the contest is news, and reverses nothing yet.
    const contests =
      tag === 'VERB' && way?.startsWith('stance:') && CONTESTS.has(stem(read)) && contestsADecision(words, index)
    if (pending || contests) {
      if (way?.startsWith('stance:') && STANCE_TAGS.has(tag) && !attributive(words, index)) {
        note(into, PENDING, DECISIONS.has(stem(read)))
        if (!subordinate && !hypothetical) taken = true
      }
      if (contests) pending = true
      return
    }
    // "Refused to restart", "approved the plan to close the unit", "upheld the decision to close it":
    // a stance taken on a stance is one stance, the two signs multiplied (refusing a restart is
    // against going ahead; approving a closure is for the closure). "Declined to" refuses what
    // follows, and "declined to comment" takes no stance at all.
    const declines =
      tag === 'VERB' && lemma === 'decline' && words[index + 1]?.word === 'to' && words[index + 2]?.tag === 'VERB'
    if (declines) way = 'stance:down'
    const complement = tag === 'VERB' && way?.startsWith('stance:') ? stanceComplement(words, index, stem) : undefined
    if (complement && way) {
      const composed = stanceOnStance(way, complement.way)
      const decision = declines || DECISIONS.has(stem(read)) || complement.decision
      note(into, stance(composed), decision)
      if (decision && !subordinate && !hypothetical) taken = true
      for (const skipped of complement.words) particles.add(skipped)
      return
    }
    if (declines) return
    // "Approved dropping the sailing", "backed closing the unit": what was approved is the stance.
    const next = words[index + 1]?.word ?? ''
    const nextWay = next.endsWith('ing') ? direction(next, stem) : undefined
    if (way === 'stance:up' && (nextWay?.startsWith('stance:') || (nextWay && stem(next) === 'drop'))) {
      approved.add(index + 1)
      return
    }
    // "Drop the 9.15pm sailing", "dropped its bid": dropping a thing is a decision against it; "sales
    // dropped" is a fall.
    if (way === 'trend:down' && stem(read) === 'drop' && DETERMINERS.has(next)) {
      way = 'stance:down'
    }
    // A stance is taken by a verb ("approved", "terminated") or said of a thing by an adjective
    // ("ineligible"): the noun "terminal", or the "grant" of "the $300 million grant", takes none;
    // nor does a word that only names which thing ("the failed section of pipe" was replaced).
    const takes = STANCE_TAGS.has(tag) && !attributive(words, index)
    // "Will stay open until the summer of 2028": a state held until a time is the date it ends, which
    // the sentence states; it takes no stance either way.
    if (way?.startsWith('stance:') && !DECISIONS.has(stem(read)) && heldUntil(words, index)) return
    if (way && (!way.startsWith('stance:') || takes || approved.has(index))) {
      const decision = way.startsWith('stance:') && DECISIONS.has(stem(read))
      note(into, stance(way), decision)
      if (decision && !subordinate && !hypothetical) taken = true
    }
  })
  const mainStance =
    mainNegation || [...directions.keys()].some((direction) => direction.startsWith('stance:') || direction === PENDING)
  for (const [direction, decision] of aside) {
    if (!mainStance || !direction.startsWith('stance:')) note(directions, direction, decision)
  }
  // A sentence that moves one axis both ways ("denied … the permit", "cut prices to grow sales") says
  // nothing either way on it: left out, or it would oppose itself.
  const axes = [...directions.keys()].map((direction) => direction.split(':')[0])
  const oneWay = [...directions.keys()].filter(
    (direction) => axes.filter((axis) => axis === direction.split(':')[0]).length === 1,
  )
  return {
    polarity: { negated: negations % 2 === 1, directions: oneWay.sort() },
    // The sentence's own decision: taken in its main clause, not only possible ("could reject"),
    // nor said of someone in passing ("Ms Carrow, who led the campaign, thanked everyone who signed").
    decision:
      (taken && oneWay.some((direction) => directions.get(direction) === true)) ||
      (decided && (negations % 2 === 1 || oneWay.some((direction) => direction.startsWith('stance:')))),
  }
}

/** The stance verbs a process runs its course by, by stem. */
const RUNS_ITS_COURSE = new Set(['open', 'close', 'start', 'begin', 'began', 'end', 'finish'])
/** Processes that open and close on dates, as lemmas: consultations, ballots, hearings, inquiries. */
const PROCESSES = new Set(
  (
    'consultation ballot vote voting survey petition inquiry hearing window period exhibition season ' +
    'session meeting competition registration tender bidding trial'
  ).split(' '),
)

/**
 * The head of the subject of the verb at `index`: the first noun of its clause ("The consultation on
 * the future of five homes will close": consultation), not the nearest.
 */
function clauseSubject(words: TaggedWord[], index: number): string | undefined {
  let start = index - 1
  while (start > 0 && !(words[start] as TaggedWord).pause) start--
  for (let at = Math.max(0, start); at < index; at++) {
    const { tag, lemma } = words[at] as TaggedWord
    if (NOUN_TAGS.has(tag)) return lemma
  }
  return undefined
}

/** Verbs of deciding, as lemmas: what they govern is decided ("opted to keep the branch"). */
const DECIDING = new Set(['decide', 'vote', 'resolve', 'opt', 'choose', 'elect'])
/** Words between a verb of deciding and the "to" it governs: "voted on Tuesday night to". */
const DECIDING_REACH = 5
/** What may stand between them: "last month", "unanimously", "9-2", "on Tuesday night". */
const REACHED_OVER = new Set(['ADV', 'ADJ', 'NOUN', 'PROPN', 'NUM', 'DET', 'ADP', 'PART', 'SYM'])
/** The same verbs by stem, for a cheap look before the tagger reads a sentence (`decides`). */
const DECIDING_STEMS = new Set(['decid', 'vote', 'resolv', 'opt', 'choos', 'chose', 'elect'])
/** A vote's side, read from the preposition after it. */
const VOTED_ON = new Map([
  ['against', 'stance:down'],
  ['for', 'stance:up'],
])

const MONTH_PREPOSITIONS = new Set([
  'in',
  'by',
  'from',
  'since',
  'until',
  'till',
  'of',
  'early',
  'late',
  'mid',
  'last',
  'next',
  'this',
])

/**
 * A stance someone asks for ("urged the council to reject it", "will ask the Court of Appeal to
 * overturn the judgment") or a decision someone contests ("lodged an appeal against the refusal"):
 * news, a decision of its own, but it turns nothing round until it is granted. Read as its own axis,
 * so that it neither reverses nor restates a stance.
 */
const PENDING = 'pending:contest'
/** A stance asked for or a decision contested (PENDING). */
export function contested(polarity: Polarity): boolean {
  return polarity.directions.includes(PENDING)
}
/** The verbs of asking, as lemmas. */
const REQUESTS = new Set(['ask', 'urge', 'petition', 'lobby', 'seek', 'demand', 'implore', 'beg'])
/** The verbs of contesting, by stem: against a decision, not a penalty or a charge, which they refuse. */
const CONTESTS = new Set(['appeal', 'challeng', 'contest'])
/** What a decision is called when someone contests it, or turns it round. */
export const DECISION_NOUNS = new Set([
  'decision',
  'ruling',
  'judgment',
  'judgement',
  'refusal',
  'verdict',
  'approval',
  'permission',
  'consent',
])

/**
 * Whether what a verb of contesting at `index` contests, in its clause, is a decision ("the county
 * council's decision", "with the Court of Appeal against last week's ruling").
 */
function contestsADecision(words: TaggedWord[], index: number): boolean {
  for (let at = index + 1; at <= index + CONTESTED_WORDS && at < words.length; at++) {
    const word = words[at] as TaggedWord
    if (word.pause) return false
    if (DECISION_NOUNS.has(word.word)) return true
    if (!CONTESTED_TAGS.has(word.tag)) return false
  }
  return false
}
/** Words between a verb of contesting and the decision it contests, at most. */
const CONTESTED_WORDS = 15

/** Modals of possibility: the stance they govern is one that may be taken, not one that was. */
const MODALS = new Set(['could', 'would', 'might', 'may', 'should', "'d", '’d'])

/**
 * "Will not open until June 2029", "not before the spring": the negation says when, not whether, as
 * "will open in June 2029" does. Such a negation is taken out of the clause before it is read.
 */
const TEMPORAL_NEGATION =
  /\b(?:not|never|(\p{L}+)n['’]t)\b(?=[^.;:!?,]*\b(?:until|till|before (?:\d|the end\b|(?:early|late|mid|next)\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|spring|summer|autumn|fall|winter)\p{L}*)))/giu
/** The verbs a contracted negation leaves behind, where they are not the word without "n't". */
const UNCONTRACTED: Record<string, string> = { wo: 'will', ca: 'can', sha: 'shall' }

/**
 * "Does not change the price", "has not risen since", "is not in question", "has no plans to raise
 * it": a change denied is what held before, still holding, as "remains" says. Such a negation and its
 * verb of change are read as "remains", no refusal and no rise or fall.
 */
const DENIED_CHANGE =
  /\b(?:(?:not|never|(?:\p{L}+)n['’]t)(?:\s+(?:been|be|yet|so|far|much|really|significantly|materially))*|no (?:plans?|intention) to)\s+(?:change[ds]?|alter(?:ed|s)?|rise|risen|rose|raised?|fall(?:en)?|fell|move[ds]?|budged?|increased?|decreased?|revised?|affect(?:ed|s)?|in (?:question|doubt))\b/giu

/**
 * "Nobody disputes that", "does not deny", "no longer contests", "withdrew its denial", "dropped its
 * opposition": a denial denied, which accepts what follows. Read as "accepts", not as a negation of
 * the clause.
 */
const DENIAL_DENIED =
  /\b(?:(?:withdr(?:aw|aws|ew|awn|awing)|drop(?:s|ped|ping)?|abandon(?:s|ed|ing)?|end(?:s|ed|ing)?)\s+(?:its|their|his|her)\s+(?:denial|objections?|opposition)\b(?:\s+and)?|(?:nobody|no one|no-one)(?:,[^,]{1,40},)?\s+(?:now\s+|seriously\s+)?(?:disputes?|denies|doubts?|questions?|contests?)|(?:no longer|not|never|(?:\p{L}+)n['’]t)\s+(?:disputes?|deny|denies|contests?|challenges?))\b/giu

/**
 * "Walked back its decision to drop the sailing", "scrapped its plan to close the unit", "dropped its
 * pledge to cut fares": an end put to a decision is the decision's opposite, read as "decided not to"
 * ("decided not to drop": the sailing is kept), not as a second stance of its own.
 */
const DECISION_ENDED =
  /\b(?:walk(?:s|ed|ing)? back|revers(?:e|es|ed|ing)|overturn(?:s|ed|ing)?|rescind(?:s|ed|ing)?|scrap(?:s|ped|ping)?|abandon(?:s|ed|ing)?|drop(?:s|ped|ping)?|ditch(?:es|ed|ing)?|shelv(?:e|es|ed|ing)|withdr(?:aw|aws|ew|awn|awing)|u-turn(?:s|ed)? on|backtrack(?:s|ed)? on|(?:went|go|goes|gone) back on)\s+(?:its|the|their|his|her|a|that|this)\s+(?:own\s+|earlier\s+|original\s+)?(?:decision|plans?|vote|move|proposal|bid|pledge|promise|commitment|intention)\s+to\b\s*/giu

/**
 * A ruling or a permission "set aside" is quashed ("a judge set aside the planning consent"); money
 * set aside is a reserve ("set aside a $300 million grant"), no stance.
 */
const SET_ASIDE_RULING =
  /\bset aside (?=(?:the|its|their|that|this|a|an) (?:[\p{L}-]+ )?(?:consent|permission|approval|decision|ruling|verdict|conviction|order|permit|judgment|judgement|sentence|award)\b)/giu

/**
 * "Lodged an appeal against the penalty", "launched a legal challenge": the noun says what the verb
 * "appealed" says, a stand against what it names.
 */
const CHALLENGE_BROUGHT =
  /\b(?:lodg(?:e|es|ed|ing)|fil(?:e|es|ed|ing)|launch(?:es|ed|ing)?|mount(?:s|ed|ing)?|brought|bring(?:s|ing)?)\s+(?:an?|its|their|his|her)\s+(?:legal\s+)?(?:appeal|challenge)\b/giu

/**
 * "Gave the go-ahead for", "was given the green light": approved. "Applied to the agency for a permit",
 * "filed an application": a party going ahead with a bid, which it may later withdraw.
 */
const GO_AHEAD =
  /\b(?:g(?:ave|ive|iven|ives|iving)|got|gets|won|wins) (?:(?:it|them|the [\p{L}-]+) )?(?:the |its |their |a )?(?:go-ahead|green light)\b/giu
const APPLIED =
  /\b(?:appl(?:y|ies|ied|ying)\s+(?:to\s+[^,;.]{1,60}?\s+)?for|(?:fil|submitt|lodg)(?:e|es|ed|ing)\s+(?:an?|its|their)\s+(?:[\p{L}-]+\s+)?application)\b/giu

/**
 * A ban, a prohibition or a closure "lifted" is revoked ("lifted its prohibition notice", "lifted the
 * ban on night flights"); a forecast or a price lifted is raised, no stance.
 */
const BAN_LIFTED =
  /\blift(?:s|ed|ing)?\s+(?=(?:the|its|their|a|an|this|that)\s+(?:[\p{L}-]+\s+)?(?:bans?|prohibitions?|suspensions?|closure|freeze|embargo|moratorium)\b)/giu

function withoutTemporalNegation(text: string): string {
  return text
    .replace(BAN_LIFTED, 'revoked ')
    .replace(GO_AHEAD, 'approved')
    .replace(APPLIED, 'applied for')
    .replace(CHALLENGE_BROUGHT, 'appealed')
    .replace(SET_ASIDE_RULING, 'quashed ')
    .replace(DECISION_ENDED, 'decided not to ')
    .replace(DENIAL_DENIED, 'accepts')
    .replace(DENIED_CHANGE, 'remains')
    .replace(TEMPORAL_NEGATION, (_, verb: string | undefined) =>
      verb ? (UNCONTRACTED[verb.toLowerCase()] ?? verb) : ' ',
    )
}

/** The forms of "be" that make a passive ("is contracted", "was contracted"). */
const PASSIVE_BE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being'])
/** Words that open a noun phrase: after a verb, its object. */
const DETERMINERS = new Set(['the', 'its', 'their', 'his', 'her', 'a', 'an', 'this', 'that', 'these', 'those', 'our'])

/** Words that set a clause against the one before: the sentence asserts the clause after. */
const CONTRASTS = new Set(['but', 'yet'])
/** A "not" after a comma or a dash, as written (a negated phrase read as "not" is not one). */
const CONTRASTED = /[,;\u2013\u2014]\s*not\s/u
const VERBAL = new Set(['VERB', 'AUX'])
/** Words that join two clauses: a negation in one does not reach the other. */
const CLAUSE_JOINS = new Set(['and', 'but', 'or', 'yet', 'while', 'whereas'])

/** The tags of the words that can take a stance (wink-nlp's Universal POS tags). */
const STANCE_TAGS = new Set(['VERB', 'AUX', 'ADJ'])

/**
 * The stance of a phrasal verb at `index` and where its particle is: next to the verb ("voted down
 * the plan") or after a short object ("voted it down", "voted the scheme down").
 */
function phrasalStance(
  lemma: string,
  words: TaggedWord[],
  index: number,
): { way: string; particle: number } | undefined {
  for (let at = index + 1; at <= index + 1 + MAX_OBJECT_WORDS && at < words.length; at++) {
    const word = words[at] as TaggedWord
    if (word.pause) return undefined
    const way = PHRASAL_STANCES.get(`${lemma} ${word.word}`)
    if (way) return { way, particle: at }
    if (!OBJECT_TAGS.has(word.tag)) return undefined
  }
  return undefined
}

/**
 * A word between a determiner and its noun ("the failed section", "a new, rejected design") describes
 * the thing named; it says nothing of what the sentence reports about it.
 */
function attributive(words: TaggedWord[], index: number): boolean {
  const [before, after] = [words[index - 1], words[index + 1]]
  if (!before || !after || after.pause) return false
  return (before.tag === 'DET' || before.word === "'s" || before.word === '’s') && NOUN_TAGS.has(after.tag)
}

const NOUN_TAGS = new Set(['NOUN', 'PROPN'])

/**
 * The stance of the verb a stance verb at `index` governs through "to", after a short object or
 * none ("refused to restart", "refused the firm's application to restart", "refused to call off
 * the strike"), with the words it spans.
 */
function stanceComplement(
  words: TaggedWord[],
  index: number,
  stem: Stem,
): { way: string; decision: boolean; words: number[] } | undefined {
  // A stance named by a noun of the object ("scrapped its closure proposal", "rejected the appeal"),
  // taken on when the object ends the clause; a verb after "to" decides instead, stance or none.
  let named: { way: string; decision: boolean; words: number[] } | undefined
  for (let at = index + 1; at <= index + 2 + MAX_OBJECT_WORDS && at < words.length; at++) {
    const word = words[at] as TaggedWord
    if (word.pause) return named
    if (word.tag === 'NOUN' && !named) {
      const way = direction(word.word, stem) ?? direction(word.lemma, stem)
      if (way?.startsWith('stance:')) named = { way, decision: true, words: [at] }
    }
    if (word.word === 'to') {
      const verb = words[at + 1]
      if (!verb || verb.pause || verb.tag !== 'VERB') return undefined
      const phrasal = phrasalStance(verb.lemma, words, at + 1)
      if (phrasal) {
        // ("Agreed to go ahead with the plan to close it": the phrasal verb's own object counts too.)
        const composed = withItsObject(phrasal, words, stem)
        return { way: composed.way, decision: true, words: [at + 1, ...composed.words] }
      }
      const way = direction(verb.word, stem) ?? direction(verb.lemma, stem)
      if (!way?.startsWith('stance:')) return undefined
      return { way, decision: DECISIONS.has(stem(verb.lemma)) || DECISIONS.has(stem(verb.word)), words: [at + 1] }
    }
    // "Proceed with the proposal to close it", "pulled out of the plan to shut it", "withdrew from the
    // agreement to build it": a verb that takes its object through a preposition governs what the
    // object is for, as "approved the plan to close" does.
    const through = at === index + 1 && THROUGH.has(word.word)
    if (!through && !COMPLEMENT_OBJECT_TAGS.has(word.tag)) return named
  }
  return named
}

/**
 * A phrasal verb's stance with what its own object is for composed in: "went ahead with the plan to
 * close it" and "backed out of the plan to close it" take a stance on a stance, the signs multiplied,
 * as after a verb of one word. With the words it spans from its particle on.
 */
function withItsObject(
  phrasal: { way: string; particle: number },
  words: TaggedWord[],
  stem: Stem,
): { way: string; words: number[] } {
  const inner = stanceComplement(words, phrasal.particle, stem)
  return {
    way: inner ? stanceOnStance(phrasal.way, inner.way) : phrasal.way,
    words: [phrasal.particle, ...(inner?.words ?? [])],
  }
}

/** A state a word at `index` names is held until a time: "until" or "till" follows in its clause. */
function heldUntil(words: TaggedWord[], index: number): boolean {
  for (const word of words.slice(index + 1, index + 1 + UNTIL_REACH)) {
    if (word.pause) return false
    if (word.word === 'until' || word.word === 'till') return true
  }
  return false
}
/** Words between the state and its "until": "open to visitors until", "closed to traffic until". */
const UNTIL_REACH = 4

/** A stance taken on a stance: the two signs multiplied (refusing a closure keeps what is there). */
function stanceOnStance(outer: string, inner: string): string {
  return outer.endsWith(':up') === inner.endsWith(':up') ? 'stance:up' : 'stance:down'
}

/** The prepositions a verb of stance takes its object through ("go ahead with", "back out of"). */
const THROUGH = new Set(['with', 'of', 'from'])
/** An object before "to" may hold a possessive ("the firm's application"). */
const COMPLEMENT_OBJECT_TAGS = new Set(['PRON', 'DET', 'ADJ', 'NOUN', 'PROPN', 'PART'])
/** What may stand between a verb of contesting and the decision: an object's words, and prepositions. */
const CONTESTED_TAGS = new Set(['ADP', 'NUM', ...COMPLEMENT_OBJECT_TAGS])

/** Words an object between a verb and its particle may have ("the revised scheme"), and their tags. */
const MAX_OBJECT_WORDS = 3
const OBJECT_TAGS = new Set(['PRON', 'DET', 'ADJ', 'NOUN', 'PROPN'])

/**
 * `pause`: a mark that ends a clause (a comma, a semicolon, a dash, a bracket) stands before the word.
 */
type TaggedWord = { word: string; tag: string; lemma: string; pause: boolean }

const PARTICLE_TAGS = new Set(['ADP', 'ADV', 'PART'])

/** Words that open a clause subordinate to another: of time, cause, concession and condition. */
const SUBORDINATORS = new Set(
  'after before since while whilst although though because until unless once whereas if which who whom whose'.split(
    ' ',
  ),
)

/**
 * Whether a subordinate clause opens at `index`: one of SUBORDINATORS, or a "that" after a noun (the
 * permit that the board granted). After a verb, "that" opens what was said ("said that it would
 * withdraw"), which is the sentence's news.
 */
function opensSubordinateClause(words: TaggedWord[], index: number): boolean {
  const { word, pause } = words[index] as TaggedWord
  const before = words[index - 1]
  // ", having refused an earlier application": a perfect participle set off tells what came before.
  if (word === 'having' && (pause || index === 0)) return true
  // "Has since been withdrawn": "since" after an auxiliary is an adverb of time, no clause of its own.
  if (word === 'since' && before?.tag === 'AUX') return false
  if (SUBORDINATORS.has(word)) return true
  return word === 'that' && before !== undefined && !before.pause && (before.tag === 'NOUN' || before.tag === 'PROPN')
}

/** A text's words, lower case, each with its part of speech and lemma as wink-nlp reads them (decision 034). */
function taggedWords(text: string): TaggedWord[] {
  const tokens = taggedTokens(text)
  // The words as written, lower case: wink's "normal" form respells them ("thru", "councilors").
  const words = tokens.map(({ word }) => word.toLowerCase())
  const tags = tokens.map(({ tag }) => tag)
  const lemmas = tokens.map(({ lemma }) => lemma)
  const tagged: TaggedWord[] = []
  let pause = false
  words.forEach((word, index) => {
    if (/[\p{L}\p{N}]/u.test(word)) {
      // A phrasal verb made a noun by its hyphen ("the sign-off", "a lay-off", "the go-ahead") ends in
      // a noun, not a particle: what follows it may qualify it ("the sign-off that the authority won").
      const compound = words[index - 1] === '-' && /[\p{L}]/u.test(words[index - 2] ?? '')
      const tag = compound && PARTICLE_TAGS.has(tags[index] ?? '') ? 'NOUN' : (tags[index] ?? '')
      tagged.push({ word, tag, lemma: lemmas[index] ?? word, pause })
      pause = false
    } else if (/^[,;:()\u2013\u2014.!?]$/u.test(word) || word === '--') pause = true
  })
  return tagged
}

function withoutNegatedPhrases(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(NEGATED_PHRASES, ' ')
}

/**
 * Opposed: one negates what the other asserts, or they move one axis in opposite directions; two
 * flips cancel ("did not fall" is no opposite of "rose").
 */
export function opposed(a: Polarity, b: Polarity): boolean {
  // Each takes a stance: one stance however it is worded ("walked away" / "withdrew"), and a negation
  // left over in another clause ("was shelved in July and is not part of the plan") turns it not.
  const [left, right] = [stanceSign(a), stanceSign(b)]
  if (left !== 0 && right !== 0) {
    const trend = (polarity: Polarity) => polarity.directions.find((direction) => direction.startsWith('trend:'))
    const [mine, theirs] = [trend(a), trend(b)]
    return (left !== right) !== (mine !== undefined && theirs !== undefined && mine !== theirs)
  }
  let flips = a.negated === b.negated ? 0 : 1
  const theirs = new Map(b.directions.map((direction) => direction.split(':') as [string, string]))
  for (const direction of a.directions) {
    const [axis, way] = direction.split(':') as [string, string]
    const other = theirs.get(axis)
    if (other && other !== way) flips += 1
  }
  return flips % 2 === 1
}

/** The particles of PHRASAL_STANCES, for a cheap look before the tagger reads a sentence. */
const PARTICLES = new Set([...PHRASAL_STANCES.keys()].map((phrase) => phrase.split(' ')[1] as string))

/**
 * The stance words that name a decision someone takes (approving, signing, withdrawing, overturning),
 * by stem, apart from those that name what happens (starting, winning, losing, closing): "the board
 * approved the permit" reports a decision, "Rovers open their campaign" does not.
 */
const DECISIONS = new Set(
  (
    'approv accept grant authoris authoriz sign agre ratifi back endors support award sanction adopt upheld uphold ' +
    'reinstat reject deni deny block veto ban refus prohibit forbid withdraw withdrew withdrawn revok overturn cancel ' +
    'halt suspend abandon scrap drop shelv termin oppos bar rescind repeal quash annul axe ditch overrul declin waiv contest ' +
    'challeng appeal'
  ).split(' '),
)

/**
 * Whether a sentence reports a decision: a stance its main clause takes, in a sentence that names a
 * decision ("the council approved", "a judge halted", "voted it down"), or one called off ("walked
 * away from", "no longer"). The tagger reads only a sentence that holds such a word at all.
 */
export function decides(text: string, stem: Stem = stemmer): boolean {
  const lower = text.normalize('NFKC').toLowerCase()
  if (lower.search(NEGATED_PHRASES) >= 0) return true
  DECISION_ENDED.lastIndex = 0
  const hint =
    DECISION_ENDED.test(lower) ||
    wordTokens(lower).some(
      (token) => PARTICLES.has(token) || DECISIONS.has(stem(token)) || DECIDING_STEMS.has(stem(token)),
    )
  return hint && readStance(text, stem).decision
}

/**
 * What the stances a sentence takes are taken on, by stem: the head noun of what a stance verb governs
 * ("cancelled its agreement with Quillon": agreement; "rejected the scaled-down scheme": scheme;
 * "walked away from its deal": deal), or of its subject when the verb is passive ("the closure order
 * was revoked": order). A plan, a promise or a bid is taken on what it is for ("shelved plans for a
 * flotation": flotation). Two tellings whose stances are taken on one thing are about that thing,
 * however many other words wrap each.
 */
export function stanceThemes(text: string, stem: Stem = stemmer): Set<string> {
  const words = taggedWords(withoutTemporalNegation(text).normalize('NFKC').toLowerCase())
  const themes = new Set<string>()
  words.forEach(({ word, tag, lemma }, index) => {
    if (tag !== 'VERB') return
    const phrasal = phrasalStance(lemma, words, index)
    const way = phrasal?.way ?? direction(word, stem) ?? direction(lemma, stem)
    if (!way?.startsWith('stance:')) return
    const passive = PASSIVE_BE.has(words[index - 1]?.word ?? '')
    const head = passive ? subjectHead(words, index) : objectHead(words, (phrasal?.particle ?? index) + 1)
    if (head && !DECISION_NOUNS.has(head)) themes.add(stem(head))
  })
  return themes
}

/** The tags a participle that describes a noun follows: "the revised plan", "a scaled-down scheme". */
const LEADS = new Set(['DET', 'PRON', 'ADJ', 'NUM'])
/** Words read for a stance's object, at most. */
const THEME_WORDS = 8
/** What may open a noun phrase before its nouns: "its", "the", "a five-year", "120-seat", "the town's". */
const THEME_LEAD_TAGS = new Set(['DET', 'PRON', 'ADJ', 'NUM', 'PART'])
/**
 * Nouns of intent and of stance, taken on what they are for ("plans for", "its promise to keep", "its
 * support for the calendar").
 */
const INTENT_NOUNS = new Set([
  'plan',
  'proposal',
  'bid',
  'move',
  'promise',
  'pledge',
  'commitment',
  'intention',
  'application',
  'decision',
  'support',
  'backing',
  'opposition',
])

/** The head noun of the noun phrase from `start`: the last of its nouns. */
function objectHead(words: TaggedWord[], start: number): string | undefined {
  let head: string | undefined
  for (let at = start; at < words.length && at < start + THEME_WORDS; at++) {
    const { word, tag, lemma, pause } = words[at] as TaggedWord
    if (at > start && pause) break
    if (head === undefined && tag === 'ADP') continue
    // "Agreed to sell the police station": the stance is taken on what the verb after "to" governs.
    if (head === undefined && word === 'to' && words[at + 1]?.tag === 'VERB') {
      at += 1
      continue
    }
    // A possessive is followed by its noun, whatever the tagger calls it ("Kestrel Ridge's permit").
    const possessed = at > start && ["'s", '’s'].includes(words[at - 1]?.word ?? '')
    if (NOUN_TAGS.has(tag) || (possessed && tag === 'VERB')) {
      head = lemma
      continue
    }
    // A participle before the noun describes it: "the scaled-down scheme", "the revised plan".
    if (head === undefined && tag === 'VERB' && LEADS.has(words[at - 1]?.tag ?? '')) continue
    if (head !== undefined) {
      if (INTENT_NOUNS.has(head) && (word === 'for' || word === 'to' || word === 'of')) {
        head = undefined
        continue
      }
      // "Kestrel Ridge's permit": the possessor names whose; the noun after it is the thing.
      if (word === "'s" || word === '’s') {
        head = undefined
        continue
      }
      break
    }
    if (!THEME_LEAD_TAGS.has(tag)) break
  }
  return head
}

/** The head noun of a passive verb's subject: the noun nearest before its auxiliaries ("the order was"). */
function subjectHead(words: TaggedWord[], index: number): string | undefined {
  for (let at = index - 1; at >= 0 && at >= index - THEME_WORDS; at--) {
    const { tag, lemma } = words[at] as TaggedWord
    if (NOUN_TAGS.has(tag)) return lemma
    if (tag !== 'AUX' && tag !== 'ADV' && tag !== 'PART') return undefined
  }
  return undefined
}

/**
 * A decision turned round: both take a stance (a stance word, or a negation) and the two stances are
 * opposite, a trend aside ("approved" / "voted down", "agreed to invest" / "pulled out"). A rise
 * against a fall is a changed figure, not this; "withdrew" and "pulled out" are one stance.
 */
export function reversesStance(a: Polarity, b: Polarity): boolean {
  const [left, right] = [stanceSign(a), stanceSign(b)]
  return left !== 0 && right !== 0 && left !== right
}

/**
 * A wording's stance as a sign: +1 going ahead, -1 refusing or stopping, 0 none. A stance word says
 * it (a negation of its clause is already in it: "did not approve" reads as refusing); a negation
 * with no stance word is a refusal ("pulled out", "no longer has a permit"), the same as "withdrew".
 */
export function stanceSign(polarity: Polarity): number {
  const way = polarity.directions.find((direction) => direction.startsWith('stance:'))
  if (way) return way.endsWith(':up') ? 1 : -1
  return polarity.negated ? -1 : 0
}

/**
 * The two take different stances at all: a negation or a direction one has and the other lacks. A
 * judge's "contradicted" needs at least this ("has a contract" / "cancelled the contract"); two
 * wordings with the same stance contradict each other only in a judge's slip.
 */
export function stancesDiffer(a: Polarity, b: Polarity): boolean {
  return a.negated !== b.negated || a.directions.join() !== b.directions.join()
}

/**
 * Positive evidence that two wordings take one stance: the same negation, and the same stance words
 * ("approved" / "cleared"). A trend word beside a figure both state alike ("rose to 5 million" /
 * "stood at 5 million") says nothing against it, so `figuresAgree` sets the trend axis aside. What
 * the words cannot settle ("approved the grant" / "voted the grant down") is no confirmation.
 */
export function sameStance(a: Polarity, b: Polarity, figuresAgree: boolean): boolean {
  if (a.negated !== b.negated) return false
  const kept = (polarity: Polarity) =>
    polarity.directions.filter((direction) => !figuresAgree || !direction.startsWith('trend:')).join()
  return kept(a) === kept(b)
}

/** A word's most frequent sense, by the word that heads it in WordNet (scripts/wordnet-synonyms.ts). */
const SYNONYMS: Readonly<Record<string, string>> = WORDNET.synonyms

/**
 * The word that heads the most frequent sense of `token` ("teenagers" and "adolescents" are
 * "adolescent"), read through its base forms, as WordNet lists words; itself when it has none. The
 * table holds no inflected form whose base is a word of its own ("stops", the card game).
 */
function synonym(written: string, noun = false): string {
  const token = REGULAR_ENDING.test(written) || noun ? written : verbBase(written)
  for (const form of [token, ...baseForms(token)]) {
    if (noun && VERB_SENSES.has(form)) return form
    if (Object.hasOwn(SYNONYMS, form)) return SYNONYMS[form] as string
  }
  return token
}
/**
 * Words the table folds by their verb's sense ("deal" to "cover", "grant" to "let"): as a noun, after
 * "a", "the" or "its", such a word is itself (scripts/wordnet-synonyms.ts).
 */
const VERB_SENSES: ReadonlySet<string> = new Set(WORDNET.verbSenses)

/**
 * Endings a word's base form is read from by rule (baseForms, and the stemmers); a word without one
 * may be an irregular form, which only a lexicon knows ("heard" is "hear", "sold" "sell", "built"
 * "build"), and the tagger holds one.
 */
const REGULAR_ENDING = /(?:s|ed|ing|ly)$/u

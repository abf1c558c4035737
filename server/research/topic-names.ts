// The names a topic goes by: those its brief writes with capitals ("Fenwick Hill housing
// development", "Corrin Water sewage spills fine"), and those the stories about it keep naming in
// their headlines and ledes ("Carrick Homes", the builder; "Wensholme", the bus company of the
// "Marrowby bus drivers' strike"). A page about something else may name the topic once, and share a
// common word with it ("drivers", "airports"); a page about the topic names one of its names and says
// something more of it (issue 40, decision 045).
import { contentTerms } from '#server/claims/terms.ts'

/**
 * A name as read: its words' terms, and the words a text names it by. The brief's own names are
 * named by their first word ("Corrin" for "Corrin Water"); a learned one by its words that its
 * stories never write in lower case ("Addle" of "River Addle", "Carrick" of "Carrick Homes").
 */
export type Name = { terms: string[]; marks: string[] }

/** A run of capitalised words, joined by "of", "and", "the" or "&" inside a name ("Rivers and Coasts Agency"). */
const CAPITALISED_RUN = /\p{Lu}[\p{L}\p{N}'’-]*(?:\s+(?:(?:of|and|the|&)\s+)?\p{Lu}[\p{L}\p{N}'’-]*)*/gu
/** "At Tenby Marsh", "in Thornby": where the topic happens, not what it is. */
const PLACE_BEFORE = /\b(?:at|in|near|outside|around)\s+$/u
/** Words that open a sentence with a capital whatever they are. */
const SENTENCE_START = /(?:^|[.!?:;"“”]\s*)$/u
const INITIALISM = /^\p{Lu}{1,4}s?$/u
/** Month and day names are capitalised, and name no subject. */
const CALENDAR =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/u
/** A name learned from the stories is in this share of the pages that name the topic, or of memory's facts. */
const PAGES_SHARE = 0.5
const FACTS_SHARE = 0.1
const LEARNED_MIN_TEXTS = 2

/**
 * The names a topic writes with capitals, and apart from them its places ("at Tenby Marsh"): where it
 * happens, not what it is. A topic written in lower case ("heat pumps in cold climates") has neither,
 * and is read by its words alone.
 */
export function topicNames(topic: string): { names: Name[]; places: Name[] } {
  const names: Name[] = []
  const places: Name[] = []
  for (const match of topic.matchAll(CAPITALISED_RUN)) {
    const terms = nameTerms(match[0])
    // An initialism alone is a thing's common name in a brief ("AI agents", "EV charging").
    if (terms.length === 0 || INITIALISM.test(match[0])) continue
    const place = PLACE_BEFORE.test(topic.slice(0, match.index))
    ;(place ? places : names).push({ terms, marks: terms })
  }
  return { names, places }
}

/**
 * The names that the stories about a topic keep using: in half the headlines and ledes that name the
 * topic, or in a tenth of the facts memory holds of it; in two at least. A capitalised word that
 * opens a sentence counts only when the same texts also write it with a capital inside one ("Carrick
 * Homes has cut ..." / "... said Carrick").
 */
export function learnedNames(
  sets: readonly (readonly string[])[],
  known: readonly Name[],
  also: readonly string[] = [],
): Name[] {
  // A word any of these texts writes in lower case is a common word, by which no name is told.
  const lowerCase = new Set<string>()
  for (const text of [...sets.flat(), ...also]) {
    for (const word of text.match(LOWER_CASE_WORD) ?? []) lowerCase.add(nameWords(word)[0] ?? '')
  }
  const knownNames = new Set(known.map((name) => name.terms.join(' ')))
  const learned = new Map<string, Name>()
  sets.forEach((texts, index) => {
    const share = index === 0 ? PAGES_SHARE : FACTS_SHARE
    const needed = Math.max(LEARNED_MIN_TEXTS, Math.ceil(texts.length * share))
    for (const [first, terms] of recurringNames(texts, needed)) {
      if (knownNames.has(terms.join(' ')) || learned.has(first)) continue
      const marks = terms.filter((term) => !lowerCase.has(term))
      learned.set(first, { terms, marks: marks.length > 0 ? marks : [first] })
    }
  })
  return [...learned.values()]
}

function recurringNames(texts: readonly string[], needed: number): Map<string, string[]> {
  const inside = new Set<string>()
  const textsOf = new Map<string, { terms: string[]; texts: Set<number> }>()
  texts.forEach((text, index) => {
    for (const { terms, opensSentence } of nameRuns(text)) {
      const first = terms[0]
      if (!first) continue
      if (!opensSentence || terms.length > 1) inside.add(first)
      const entry = textsOf.get(first) ?? { terms, texts: new Set<number>() }
      if (terms.length > entry.terms.length) entry.terms = terms
      entry.texts.add(index)
      textsOf.set(first, entry)
    }
  })
  const recurring = new Map<string, string[]>()
  for (const [first, { terms, texts: holding }] of textsOf) {
    if (holding.size >= needed && inside.has(first)) recurring.set(first, terms)
  }
  return recurring
}
const LOWER_CASE_WORD = /(?<![\p{L}'’])\p{Ll}[\p{L}'’-]*/gu

/**
 * How a topic with names is told from its passing mentions (issue 40, item 6). A page about it names
 * it, by the brief's name or one its stories use, in its headline or lede, and says one thing more of
 * it there (another name, its place, or one of its words): "Wensholme drivers back walkouts". Three
 * things said of it are enough without a name ("Chlorine leaks from Tenby Marsh chemical works"). A
 * name within another name is another thing ("the Lowmoor Show", "Marrowby Town", "the Harrowfield
 * Carnival"), and a name where something happens is a place ("the fields at Fenwick Hill"). Undefined
 * for a topic without names: its words alone decide.
 */
export function topicReader(
  topic: string,
  openings: readonly string[],
  known: readonly string[],
): ((opening: string, slug: string, byWords: boolean) => boolean) | undefined {
  const { names: own, places } = topicNames(topic)
  if (own.length === 0) return undefined
  const inNames = new Set([...own, ...places].flatMap((name) => name.terms))
  const words = nameWords(topic).filter((term) => !inNames.has(term))
  const topical = new Set([...inNames, ...words])
  // The pages that name the topic in any way, and what memory holds of it, teach the names its
  // stories use.
  const naming = openings.filter((opening) => mentions(opening, own))
  const learned = learnedNames([naming, known], [...own, ...places], openings)
  for (const name of learned) for (const term of name.terms) topical.add(term)
  // And the words they tell it in, which may not be the brief's ("parking charge" of an "entry fee"):
  // one thing more said of a page that names the brief's name, never a name.
  const vocabulary = recurringWords([naming, known], topical)
  return (opening, slug, byWords) => {
    const terms = new Set(nameWords(`${opening} ${slug}`))
    // A URL's slug writes names in lower case: one there names it as a place does, unless the
    // headline or lede writes it within another name.
    const slugTerms = new Set(nameWords(slug))
    const runs = nameRuns(opening)
    const ownNamed = own.filter((name) => writes(runs, name, topical) === 'named')
    // The brief's name written whole ("Corrin Water", not "Corrin") counts twice: it is the topic.
    const whole = ownNamed.filter((name) => name.terms.length > 1).length
    // A learned name is named whole ("Carrick Homes"); in part it may be a place ("Ashcombe's
    // brewer", of Ashcombe District Council).
    const learnedNamed = learned.filter(
      (name) => writes(runs, name, topical) === 'named' && name.terms.every((term) => terms.has(term)),
    )
    // A place of the topic; a name written where something happens, or in part ("Ashcombe's"); a
    // name of several words by its common words ("the national park authority").
    const placed = [...own, ...learned].filter(
      (name) =>
        !ownNamed.includes(name) &&
        !learnedNamed.includes(name) &&
        (PLACED_OR_NAMED.has(writes(runs, name, topical)) ||
          byCommonWords(opening, name) ||
          (writes(runs, name, topical) === undefined && name.marks.some((mark) => slugTerms.has(mark)))),
    ).length
    const where = places.filter((place) => place.marks.some((mark) => terms.has(mark))).length + placed
    const said = words.filter((word) => terms.has(word)).length
    const count = ownNamed.length + whole + learnedNamed.length + where + said
    if (count >= SIGNALS_UNNAMED) return true
    if (learnedNamed.length > 0 && count >= SIGNALS_NEEDED) return true
    const told = [...vocabulary].some((word) => terms.has(word)) ? 1 : 0
    if (ownNamed.length > 0 && count + told >= SIGNALS_NEEDED) return true
    // The topic's words in the headline or lede, as a topic without names is read, where the page
    // names it as itself or as a place too; not where it names the topic's name only within another
    // name ("the Lowmoor Show"), nor only the topic's place ("Tenby Marsh pool reopens").
    if (!byWords) return false
    return ownNamed.length + learnedNamed.length + placed > 0
  }
}

const PLACED_OR_NAMED = new Set<string | undefined>(['placed', 'named'])

/** A page about a topic says this much of it in its headline and lede: a name and one thing more. */
const SIGNALS_NEEDED = 2
const SIGNALS_UNNAMED = 3

/**
 * How a text's runs of capitals write `name`: as itself ("named": whole, or by one of its marks in
 * a run whose other words are the topic's, "Lowmoor Festival", "Lowmoor Hall"), where something
 * happens ("placed": "at Fenwick Hill"), within another name ("other": "the Lowmoor Show", "Marrowby
 * Town"), or not at all.
 */
function writes(
  runs: readonly NameRun[],
  name: Name,
  topical: ReadonlySet<string>,
): 'named' | 'placed' | 'other' | undefined {
  let found: 'placed' | 'other' | undefined
  for (const { terms, place } of runs) {
    if (!name.marks.some((mark) => terms.includes(mark))) continue
    // A name of several words written whole is itself however the run goes on ("Glenmarra National
    // Park Authority"); a name of one word within another name is another thing ("Marrowby Town").
    const whole = name.terms.length > 1 && name.terms.every((term) => terms.includes(term))
    const itself = whole || terms.every((term) => name.terms.includes(term) || topical.has(term))
    if (place) found = 'placed'
    else if (itself) return 'named'
    else found ??= 'other'
  }
  return found
}

type NameRun = { terms: string[]; place: boolean; opensSentence: boolean }

/**
 * A text's runs of capitals, each as a name: "Northline's Marrowby bus arm" holds two ("Northline",
 * "Marrowby"), and so does "Wensholme and RPWU"; "Rivers and Coasts Agency" is read both ways. A run
 * after "at", "in" or "near" is a place ("at Fenwick Hill"), unless it is someone's ("at Ostrava's
 * works").
 */
function nameRuns(text: string): NameRun[] {
  const runs: NameRun[] = []
  for (const match of text.matchAll(CAPITALISED_RUN)) {
    const before = text.slice(0, match.index)
    const owned = match[0].split(AFTER_POSSESSIVE)
    const place = PLACE_BEFORE.test(before) && owned.length === 1
    const opensSentence = SENTENCE_START.test(before)
    for (const part of owned) {
      const pieces = part.split(AND)
      for (const piece of pieces.length > 1 ? [part, ...pieces] : [part]) {
        const terms = nameTerms(piece)
        if (terms.length > 0) runs.push({ terms, place, opensSentence: opensSentence && piece === owned[0] })
      }
    }
  }
  return runs
}
const AFTER_POSSESSIVE = /(?<=['’]s?)\s+/u
const AND = /\s+(?:and|&)\s+/u

/**
 * The words in lower case that recur as names do (in half the pages, or a tenth of memory's facts,
 * two at least), beyond the topic's own.
 */
function recurringWords(sets: readonly (readonly string[])[], topical: ReadonlySet<string>): Set<string> {
  const recurring = new Set<string>()
  sets.forEach((texts, index) => {
    const needed = Math.max(LEARNED_MIN_TEXTS, Math.ceil(texts.length * (index === 0 ? PAGES_SHARE : FACTS_SHARE)))
    const textsOf = new Map<string, number>()
    for (const text of texts) {
      const words = new Set((text.match(LOWER_CASE_WORD) ?? []).flatMap((word) => nameWords(word)))
      for (const word of words) textsOf.set(word, (textsOf.get(word) ?? 0) + 1)
    }
    for (const [word, count] of textsOf) if (count >= needed && !topical.has(word)) recurring.add(word)
  })
  return recurring
}

/** Whether `text` writes the last two words of `name` in lower case, one after the other ("national park"). */
function byCommonWords(text: string, name: Name): boolean {
  if (name.terms.length < 2) return false
  const [last, beforeLast] = [name.terms.at(-1), name.terms.at(-2)]
  const lower = (text.match(LOWER_CASE_WORD) ?? []).flatMap((word) => nameWords(word))
  return lower.some((word, index) => word === last && lower[index - 1] === beforeLast)
}

/** Whether `text` holds a mark of any of `names`, however it writes it. */
function mentions(text: string, names: readonly Name[]): boolean {
  const terms = new Set(nameWords(text))
  return names.some((name) => name.marks.some((mark) => terms.has(mark)))
}

function nameTerms(written: string): string[] {
  return nameWords(written).filter((term) => !CALENDAR.test(term))
}

/**
 * A text's terms with their possessives taken off ("Marrowby's" names Marrowby), and a plural's "-es"
 * after a hissing sound ("buses" is "bus", where contentTerms leaves "buse").
 */
export function nameWords(text: string): string[] {
  return contentTerms(text).map((term) => term.replace(POSSESSIVE, '').replace(HISSING_PLURAL, ''))
}
const POSSESSIVE = /['’]s?$/u
const HISSING_PLURAL = /(?<=(?:s|x|z|ch|sh))e$/u

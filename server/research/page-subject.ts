// What a news page is about, as a newsroom writes it: the headline and the lede name the story's
// subject; a page about something else (a café review near a building site, a weather roundup)
// mentions a topic, if at all, further down. And what of a page is the site's, not the story's: the
// cookie banner and the newsletter box that every page of one site repeats (issue 40, decision 033).
import { contentTerms, STOPWORDS } from '#server/claims/terms.ts'
import type { SourceForSynthesis } from '#server/providers/types.ts'
import { taggedTokens } from '#server/text/english.ts'
import { CALENDAR, nameWords } from '#server/text/names.ts'
import { completeSentences, proseParagraphs } from '#server/text/prose.ts'
import { wordTokens } from '#server/text/words.ts'

/** A page as read once: each prose paragraph's complete sentences (server/text/prose.ts). */
export type ReadPage = Pick<SourceForSynthesis, 'id' | 'url' | 'title'> & { paragraphs: string[][] }

export function readPage(page: Pick<SourceForSynthesis, 'id' | 'url' | 'title' | 'text'>): ReadPage {
  return {
    id: page.id,
    url: page.url,
    title: page.title,
    paragraphs: proseParagraphs(page.text).map(completeSentences),
  }
}

/** A paragraph of the story's own prose has at least this many words (a byline or a banner has fewer). */
const LEDE_WORDS = 12
/** The lede: the story's first paragraphs (a one-line teaser often comes before the one that names it). */
const LEDE_PARAGRAPHS = 2
const DIGIT = /\p{Nd}/u
/** As in topicality.ts: half the topic's words, and three suffice. */
const MAX_TOPIC_WORDS_NEEDED = 3

/** A sentence as compared across pages: case and spacing folded. */
function sentenceKey(sentence: string): string {
  return sentence.toLowerCase().replace(/\s+/g, ' ').trim()
}

/** A page's site: its host, without "www.". */
export function host(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '')
  } catch {
    return url
  }
}

/**
 * Sentences that two or more pages of one site in this run print alike and that state no figure:
 * the site's furniture ("Cookies help us keep the Courier free to read."). A figure repeated across a
 * site's stories is background that still holds, not furniture. Another site's copy of a story
 * (syndication) is no repetition of a site.
 */
export function siteBoilerplate(pages: readonly ReadPage[]): Set<string> {
  const seen = new Map<string, Set<string>>()
  for (const page of pages) {
    const site = host(page.url)
    for (const paragraph of page.paragraphs) {
      for (const sentence of paragraph) {
        if (DIGIT.test(sentence)) continue
        const key = `${site}\n${sentenceKey(sentence)}`
        seen.set(key, (seen.get(key) ?? new Set()).add(String(page.id)))
      }
    }
  }
  const repeated = new Set<string>()
  for (const [key, ids] of seen) if (ids.size >= 2) repeated.add(key.slice(key.indexOf('\n') + 1))
  return repeated
}

/**
 * Whether a site, not a story, speaks: outside quotation marks, a story's sentences neither address
 * the reader ("By continuing you accept our cookie policy") nor bid them ("Continue reading below").
 */
export function addressesReader(sentence: string): boolean {
  if (quotesSomeone(sentence)) return false
  return READER.test(sentence) || bidsTheReader(sentence)
}

/**
 * Whether a sentence is the site's voice or a teaser, not a statement of the page's: it addresses or
 * bids the reader, or asks a question ("Is intermittent fasting safe after 60?", a "most read"
 * link), outside quotation marks. (A first person is no sign: papers and forum posts state their
 * findings as "we" and "our".)
 */
export function speaksToReader(sentence: string): boolean {
  if (quotesSomeone(sentence)) return false
  return QUESTION.test(sentence) || addressesReader(sentence)
}

/** Quotation marks: what stands inside them is someone's words, not the page's own. */
export const QUOTATION = /["“”]/u

/**
 * Whether a sentence gives someone's words: a quotation mark left open (a quote that runs on from
 * the sentence before), or a quoted span longer than a term. Marks around a few words set off a
 * term or a name, not a speaker ("has recruited 240 "digital champions"", "the so-called "blue
 * route"").
 */
export function quotesSomeone(text: string): boolean {
  if (!QUOTATION.test(text)) return false
  if ((text.match(QUOTATION_MARKS) ?? []).length % 2 === 1 || SPEECH.test(text)) return true
  return quotedSpans(text).some((words) => wordTokens(words).length > TERM_WORDS)
}

/** The words inside a sentence's quotation marks, each quotation apart (to its end if left open). */
export function quotedSpans(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((match) => match[1] ?? '')
}
/**
 * Verbs that report speech: a few words in quotation marks beside one are the speaker's ("what she
 * called "the hard yards"", "said the revenue would "not look kindly" on it").
 */
const SPEECH =
  /\b(?:said|says|say|told|tells|called|calls|described|describes|admitted|admits|added|insisted|warned|argued|claimed|wrote)\b/iu
const QUOTATION_MARKS = /["“”]/gu
/** A term set off in quotation marks is this many words at most. */
const TERM_WORDS = 3
/** A span in quotation marks, to its closing mark or the sentence's end. */
const QUOTED = /["“]([^"”]*)["”]?/gu
const READER = /\b(?:you|your|yours)\b/iu
const QUESTION = /\?\s*$/u
const OPENING_WORDS = 5

/**
 * An imperative: the sentence opens with a verb in its base form ("Continue", "Read", "Subscribe"),
 * not followed by another verb (a name the tagger took for a verb is a subject: "Velorastat went").
 */
function bidsTheReader(sentence: string): boolean {
  // The opening words are enough to tag the first one, and cheaper to read than the whole sentence.
  const opening = sentence.split(/\s+/u).slice(0, OPENING_WORDS).join(' ')
  const [first, second] = tagged(opening)
  if (!first || !second) return false
  if (first.tag === 'VERB' && first.base && second.tag !== 'VERB' && second.tag !== 'AUX') return true
  // A capital at a sentence's start makes the tagger read a verb as a name or a noun ("Sign up to
  // the newsletter", "Use the station car park", "Contact us"). No noun opens a sentence bare and
  // goes straight on to an object; a verb after "you" is read as one.
  if (!OBJECT_OPENERS.has(second.tag)) return false
  const asBid = tagged(`you ${opening.charAt(0).toLowerCase()}${opening.slice(1)}`)[1]
  return asBid?.tag === 'VERB' && asBid.base
}

/**
 * The tags of what may follow a verb bidding the reader: "the", "us", "0800 123 456". Not a particle
 * or a preposition: "Close to 500 people" opens a statement.
 */
const OBJECT_OPENERS = new Set(['DET', 'PRON', 'NUM'])

function tagged(text: string): { tag: string; base: boolean }[] {
  return taggedTokens(text).map(({ word, tag, lemma }) => ({ tag, base: lemma === word.toLowerCase() }))
}

export function isBoilerplate(sentence: string, boilerplate: ReadonlySet<string>): boolean {
  return boilerplate.has(sentenceKey(sentence)) || isFurniture(sentence)
}

/** A copyright line: the site's, on every page, whether or not this run read two of them. */
const COPYRIGHT = /^\s*(?:copyright\b|\(c\)\s)|©|\ball rights reserved\b/iu
/**
 * A cookie notice: cookies with what a site does with them ("We use cookies to personalise content and
 * to analyse our traffic", "Cookies help us run this site", "Tailwind uses cookies to measure
 * readership"). Cookies in a bakery's story are counted or baked, not set on a site.
 */
const COOKIES =
  /\bcookies?\b(?=.*\b(?:sites?|website|web|analytics?|analyse|analyze|consent|accept|personali[sz]e|adverts?|advertising|ads|browsing|privacy|settings|experience|traffic|readers|readership|log-?in|measure|choices|preferences)\b)|\b(?:sites?|website|web|analytics|consent|accept|privacy|settings)\b.*\bcookies\b/iu
/** A telephone number ("01632 960418", "+44 20 7946 0958") or an email address: a site's contact line. */
const CONTACT = /(?:^|[\s(])(?:\+\d{1,3}[\s-]?)?\d{2,5}[\s-]\d{3,4}[\s-]?\d{3,4}\b|[\w.+-]+@[\w-]+(?:\.|\[\.\])[\w.]+/u
/** What a dateline or a timestamp is made of: dates, times, and the words that write them. */
const TIMESTAMP_WORDS =
  /^(?:\p{N}[\p{N}.:,/-]*|a\.?m\.?|p\.?m\.?|am|pm|gmt|utc|bst|[ecmp][sd]t|updated|published|posted|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?|(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?)$/iu

/**
 * Text a site prints around a story rather than in it: a copyright line, or a dateline that is a
 * date and a time and nothing else ("July 16, 2026, 6:30 a.m."). Neither is a statement, though
 * each holds a number.
 */
export function isFurniture(sentence: string): boolean {
  if (COPYRIGHT.test(sentence) || CONTACT.test(sentence) || COOKIES.test(sentence)) return true
  const words = sentence
    .split(/[\s,|·]+/u)
    .map((word) => word.replace(/[:;]+$/u, ''))
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
  return words.length > 0 && words.every((word) => TIMESTAMP_WORDS.test(word))
}

/**
 * The ids of the pages whose headline (title, URL slug) or lede names the topic. One of its words is
 * enough in a headline, which rarely spells out a whole topic ("Harbour tram: what happens now?"),
 * unless the headline writes it inside another name ("Tarnside Fell Rescue": inOthersNames); a lede
 * holds half of them, as the topic check asks of a page (a local story's lede names the town a topic
 * is in, whatever it is about). A headline naming a party the story's pages name is about the story
 * too (storyParties). A page that names the topic only further down mentions it in passing.
 * Undefined when no page names the topic anywhere (a brief in another language): then this tells
 * nothing.
 */
export function pagesAboutTopic(
  topic: string,
  pages: readonly ReadPage[],
  boilerplate: ReadonlySet<string>,
): Set<number> | undefined {
  const topicTerms = new Set(contentTerms(topic))
  const subject = topicSubjectTerms(topic)
  const held = (text: string) => new Set(contentTerms(text).filter((term) => topicTerms.has(term))).size
  const namesSubject = (page: ReadPage) => {
    const othersNames = inOthersNames(page.title, topicTerms)
    return contentTerms(`${page.title} ${slugWords(page.url)}`).some(
      (term) => subject.has(term) && !othersNames.has(term),
    )
  }
  const needed = Math.min(MAX_TOPIC_WORDS_NEEDED, Math.ceil(topicTerms.size / 2))
  const about = new Set<number>()
  let named = false
  // A review, a forecast, a sports roundup, a column: a page of a section that is about something
  // else by its kind is about the topic only when its headline names it whole (or the topic is of
  // that kind itself: "restaurant reviews in Leeds").
  const topicOfAKind = FEATURE_WORDS.test(topic)
  for (const page of pages) {
    const feature = !topicOfAKind && isFeature(page)
    const names = feature
      ? held(page.title) >= Math.max(needed, Math.min(2, topicTerms.size))
      : namesSubject(page) || held(lede(page, boilerplate)) >= needed
    if (names) about.add(page.id)
    else if (!named && held(page.paragraphs.flat().join(' ')) > 0) named = true
  }
  if (about.size > 0) {
    const parties = storyParties(pages, about, boilerplate, topicTerms)
    for (const page of pages) {
      if (about.has(page.id) || (!topicOfAKind && isFeature(page))) continue
      if ((capitalisedRuns(page.title) ?? []).some((run) => parties.has(runKey(run, undefined)))) about.add(page.id)
    }
  }
  return about.size > 0 || named ? about : undefined
}

/** A name that pages about the topic on this many sites write is a party to the story. */
const PARTY_SITES = 2

/**
 * The names the pages about the topic write in their prose, on PARTY_SITES sites or more: the
 * story's parties ("Lendrigg Fibre", "Wensholme", "Lowmoor Hall"). A headline that names one is about
 * the story, though it names nothing of the topic ("Lendrigg boss to step down"). A name is a whole
 * run of capitalised words: "Harrowfield Carnival" is not "Harrowfield".
 */
function storyParties(
  pages: readonly ReadPage[],
  about: ReadonlySet<number>,
  boilerplate: ReadonlySet<string>,
  topicTerms: ReadonlySet<string>,
): Set<string> {
  // The words the pages write in lower case: at a sentence's opening, such a word is the sentence's.
  const lower = new Set<string>()
  for (const page of pages) {
    for (const word of nameWords(page.paragraphs.flat().join(' '))) if (word === word.toLowerCase()) lower.add(word)
  }
  const sites = new Map<string, Set<string>>()
  const places = new Set<string>()
  for (const page of pages) {
    if (!about.has(page.id)) continue
    for (const sentence of page.paragraphs.flat()) {
      if (isBoilerplate(sentence, boilerplate)) continue
      for (const run of capitalisedRuns(sentence, false) ?? []) {
        const key = runKey(run, lower)
        if (!key || key.split(' ').every((term) => topicTerms.has(term))) continue
        if (IN_A_PLACE.test(sentence.slice(0, run.start))) places.add(key)
        sites.set(key, (sites.get(key) ?? new Set()).add(host(page.url)))
      }
    }
  }
  return new Set([...sites].filter(([key, held]) => held.size >= PARTY_SITES && !places.has(key)).map(([key]) => key))
}
/**
 * A name written after these is a place the story happens in ("in Harrowfield", "around Kilbrannan"):
 * the town's other stories name it too. "At" names a venue as often as a party ("at Carr Lane").
 */
const IN_A_PLACE = /\b(?:in|near|around|outside)\s+$/iu

/**
 * A run's name as compared: its words' terms. At a sentence's or clause's opening, words written
 * elsewhere in lower case are the sentence's, not the name's ("Residents", "Council"); without the
 * page's words to tell (`lower` undefined), an opening word is kept.
 */
function runKey(run: Run, lower: ReadonlySet<string> | undefined): string {
  let words = run.words
  if (run.opening && lower) {
    while (words.length > 0 && lower.has((words[0] as string).toLowerCase())) words = words.slice(1)
  }
  return words
    .filter((word) => !CALENDAR.test(word.toLowerCase()))
    .flatMap((word) => contentTerms(word))
    .join(' ')
}

/**
 * The topic's words that a headline writes only inside another name: "Busiest year yet for Tarnside
 * Fell Rescue" names the Tarnside Fell Rescue, not the Tarnside broadband rollout; "Lowmoor Show" is
 * not the Lowmoor music festival. A run of capitalised words names the topic when all its words are
 * the topic's ("Corrin Water", "Brennock"). Read only in a headline written in sentence case: one in
 * title case capitalises every word, names or not. A capital opening the headline is the sentence's
 * ("Keep Kettlewick Mutual campaigners march"), so a run's first word there counts only when it is
 * the topic's.
 */
export function inOthersNames(title: string, topicTerms: ReadonlySet<string>): Set<string> {
  const others = new Set<string>()
  const runs = capitalisedRuns(title)
  if (!runs) return others
  const own = new Set<string>()
  for (const { words, opening } of runs) {
    const terms = words.map((word) => contentTerms(word))
    // A capital that opens the headline or a clause may be the sentence's, not the name's.
    const sentenceCapital = opening && words.length > 1 && terms[0]?.every((term) => !topicTerms.has(term))
    const named = (sentenceCapital ? terms.slice(1) : terms).flat()
    const topics = named.filter((term) => topicTerms.has(term))
    for (const term of topics) (named.length > topics.length ? others : own).add(term)
  }
  for (const term of own) others.delete(term)
  return others
}

/**
 * A headline's or a sentence's runs of capitalised words, as written. A run ends at punctuation and
 * after a possessive ("Brightwell's door"). `opening`: the run opens the text or a clause of it
 * (after a colon, a dash or a quotation mark), where any word takes a capital. Undefined for a
 * headline in title case (`headline`), where every long word does.
 */
function capitalisedRuns(text: string, headline = true): Run[] | undefined {
  const written = text.normalize('NFKC')
  const words = [...written.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’&-]*/gu)]
  const long = words.filter(([word]) => word.length >= TITLE_CASE_WORD && !STOPWORDS.has(word.toLowerCase()))
  const capitals = long.filter(([word]) => CAPITAL.test(word)).length
  if (headline && long.length >= TITLE_CASE_WORDS && capitals === long.length) return undefined
  const runs: Run[] = []
  let run: Run | undefined
  let end = 0
  for (const { 0: word, index } of words) {
    const gap = written.slice(end, index)
    const opening = end === 0 || CLAUSE_BREAK.test(gap)
    end = index + word.length
    const joined = run !== undefined && /^\s+$/u.test(gap) && !/['’]s$/u.test(run.words.at(-1) ?? '')
    if (run && (!joined || !CAPITAL.test(word))) {
      runs.push(run)
      run = undefined
    }
    if (!CAPITAL.test(word)) continue
    run ??= { words: [], opening, start: index }
    run.words.push(word)
  }
  if (run) runs.push(run)
  return runs
}
/** A run of capitalised words: its words as written, whether it opens a clause, where it starts. */
type Run = { words: string[]; opening: boolean; start: number }
/** What opens a clause of a headline, where any word takes a capital: a colon, a dash, a quotation mark. */
const CLAUSE_BREAK = /[:"“”‘’'—–]/u
const CAPITAL = /^\p{Lu}/u
/** Title case is told by its long words, this long or longer, of which there are at least this many. */
const TITLE_CASE_WORD = 4
const TITLE_CASE_WORDS = 4

/**
 * A topic's words that say what it is about, not where: "Ostrava Chemicals chlorine leak at Tenby
 * Marsh" is about the company and the leak; a headline naming Tenby Marsh alone ("Tenby Marsh pool
 * reopens") is another story from the same place. A place is a run of capitalised words after "at",
 * "in", "near", "outside" or "around" ("heat pumps in cold climates" names none). A topic that is all
 * place keeps its words.
 */
export function topicSubjectTerms(topic: string): Set<string> {
  const place = topic.replace(PLACE, ' ')
  const terms = contentTerms(place)
  return new Set(terms.length > 0 ? terms : contentTerms(topic))
}
const PLACE = /\b(?:at|in|near|outside|around)\s+(?:\p{Lu}[\p{L}'’-]*\s*)+/gu

/**
 * Sections and headline labels of the pages a news site writes about something by its kind, not by
 * the news: reviews, weather, sport, opinion, listings, and the like ("Review: The Salt Loft",
 * "/weather/2026/11/..."). English newsroom usage, not any one site's.
 */
const FEATURE_SECTIONS = new Set(
  (
    'opinion comment commentisfree column columns columnists letters review reviews food food-and-drink drink ' +
    'restaurants recipes weather sport sports whats-on what-s-on events listings lifestyle travel puzzles ' +
    'crosswords horoscopes obituaries obits entertainment arts culture tv tv-and-radio music film books fashion ' +
    'motoring wellbeing programs programmes podcasts'
  ).split(' '),
)
const FEATURE_WORDS =
  /\b(?:reviews?|opinion|column|comment|letters?|weather|forecast|sports?|roundup|recipes?|obituar(?:y|ies)|what's on|quiz|puzzle|horoscopes?|ask the)\b/iu
/** A headline's label: a few words before a colon ("Restaurant review:", "Weekend weather:"). */
const LABEL = /^([^:]{1,30}):/u

export function isFeature(page: Pick<ReadPage, 'url' | 'title'>): boolean {
  const label = LABEL.exec(page.title)?.[1]
  if (label && FEATURE_WORDS.test(label)) return true
  try {
    const sections = new URL(page.url).pathname.toLowerCase().split('/').slice(1, -1)
    return sections.some((section) => FEATURE_SECTIONS.has(section))
  } catch {
    return false
  }
}

/**
 * The story's first paragraphs of prose, past the site's furniture and the byline (paragraphs too
 * short to be a story's); a page of only short paragraphs is its own lede.
 */
function lede(page: ReadPage, boilerplate: ReadonlySet<string>): string {
  const paragraphs = page.paragraphs.map((paragraph) =>
    paragraph.filter((sentence) => !isBoilerplate(sentence, boilerplate)).join(' '),
  )
  const story = paragraphs.filter((paragraph) => wordTokens(paragraph).length >= LEDE_WORDS)
  return (story.length > 0 ? story : paragraphs).slice(0, LEDE_PARAGRAPHS).join(' ')
}

/** The words of a URL's path ("/ai-agents/long-runs": "ai agents long runs"): a slug names its page. */
export function slugWords(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname).replace(/[/_.-]+/g, ' ')
  } catch {
    return ''
  }
}

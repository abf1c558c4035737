// The engine's own synthesizer: used when no language model is configured, and when a model's report
// is not worth writing or fails (step-synthesize.ts). It writes nothing of its own: findings are
// sentences taken from the sources, ranked against the brief, each cited to the source it came from.
import {
  countsANoun,
  extractStatements,
  type Figure,
  isLengthOfTime,
  isShareInWords,
  isTimeOfDay,
  type Statements,
  statesCount,
  withoutTimesOfDay,
} from '#server/claims/figures.ts'
import { NUMBER_WORDS } from '#server/claims/number-words.ts'
import { decides, polarity, stanceSign, stemsOnce } from '#server/claims/subject.ts'
import { contentTerms, type FindingSignature, findingSignature, sameFinding } from '#server/claims/terms.ts'
import type { Finding, LanguageModel, Synthesis, SynthesisInput, Usage } from '#server/providers/types.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import {
  isBoilerplate,
  pagesAboutTopic,
  quotedSpans,
  quotesSomeone,
  type ReadPage,
  readPage,
  siteBoilerplate,
  speaksToReader,
} from '#server/research/page-subject.ts'
import { markers } from '#server/research/report-citations.ts'
import { NO_EVIDENCE } from '#server/research/report-render.ts'
import { surfaceForm, themeWords } from '#server/research/report-themes.ts'
import { sourcesOnTopic } from '#server/research/topicality.ts'
import { isPluralNoun, taggedTokens } from '#server/text/english.ts'
import { MONTH_NAMES, WEEKDAYS } from '#server/text/names.ts'
import { wordTokens } from '#server/text/words.ts'

const MIN_FINDINGS = 5
/**
 * As many findings as the pages state distinct facts, up to this much text: a report, not the pages
 * again. Each finding is a sentence, so 2,400 characters are about twelve.
 */
const FINDINGS_CHARACTERS = 2400
const MAX_FINDINGS = 16
/**
 * Sentences that state something memory keeps beyond the report's, at most: about two pages' worth,
 * where a quick run's pages state forty or so.
 */
const MAX_REMEMBERED = 80
/** Words a decision shares with one memory holds to be the same decision again. */
const MIN_SHARED_DECISION_WORDS = 2
/** A sentence that states a figure or a date is checkable; a lede that only names the topic is not. */
const FIGURE_WEIGHT = 2
const TOPIC_CHARACTERS = 60
/** Each further pick from one source counts for less, so one long page does not fill the report. */
const SAME_SOURCE_DECAY = 0.75
/**
 * A story tells its news in its first sentences (four or five paragraphs of one or two sentences) and
 * the background below them: past this many of a page's sentences, a finding must be told elsewhere.
 */
const NEWS_DEPTH = 8
/** A sentence supports a focus area or section when it holds this share of its words' weight. */
const TARGET_COVERAGE = 0.5
const MAX_THEMES = 3

const DIGIT = /\p{Nd}/u
/** English words that, opening a sentence (or its first clause), stand for something said before. */
const POINTS_BACK =
  /^(?:(?:before|after|like|unlike|besides|despite) (?:it|this|that|them)\b|(?:it|its|it's|this|these|those|that|they|their|them|he|she|his|her|such)\b)/i
/** "This year", "that week": they point at the page's date, which the report shows. */
const NOW = /^(?:this|that) (?:year|month|week|quarter|spring|summer|autumn|fall|winter|morning|afternoon|evening)\b/i
/** A sentence that points back is still a finding when nothing else on the topic says as much. */
const POINTING_BACK_WEIGHT = 0.5

type Candidate = {
  sourceId: number
  position: number
  text: string
  signature: FindingSignature
  /** The figures it states, read when first compared (most sentences never are). */
  figures: () => readonly Figure[]
  /** The dates it states, read with its figures. */
  dates: () => readonly string[]
  /**
   * It states something a reader can check: a figure, a date, or a decision ("the council voted the
   * plan down", "Oskarsen walked away from the project").
   */
  states: boolean
  /** It reports a decision (`decides`). */
  decides: boolean
  /** Its stance as a sign (`stanceSign`), read when first compared. */
  stance: () => number
  /** Weight for length, what it states and form, whatever the sentence says. */
  form: number
  /** IDF-weighted overlap with the brief's words. */
  relevance: number
}

type Target = { label: string; terms: string[] }

type Weigh = (terms: Iterable<string>) => number

export function createExtractiveModel(): LanguageModel {
  return {
    name: 'extractive (no language model)',
    kind: 'extractive',
    async plan(input, { signal }) {
      signal.throwIfAborted()
      return { plan: fallbackPlan(input), usage: noUsage() }
    },
    async synthesize(input, { signal }) {
      signal.throwIfAborted()
      return { synthesis: extractSynthesis(input), usage: noUsage() }
    },
  }
}

function extractSynthesis(input: SynthesisInput): Synthesis {
  // Each page is split into sentences once, for the site's furniture, the ledes and the candidates.
  const pages = input.sources.map(readPage)
  const boilerplate = siteBoilerplate(pages)
  const candidates = sentenceCandidates(pages, boilerplate)
  const weigh = idfWeigher(candidates)
  const queryTerms = new Set(contentTerms([input.topic, input.objective ?? '', ...input.focus].join(' ')))
  for (const candidate of candidates) {
    candidate.relevance = weigh([...candidate.signature.terms].filter((term) => queryTerms.has(term)))
  }
  const known = input.knownFacts.map(said)
  const chosen: Candidate[] = []
  const rejected = new Set<Candidate>()
  const pick = (pool: Candidate[], score: (candidate: Candidate) => number) =>
    pickBest(pool, score, chosen, rejected, known)

  const onTopic = sourcesOnTopic(input.topic, input.sources)
  const mentions = candidates.some((candidate) => candidate.relevance > 0)
  // A page that names the topic only below its headline and lede mentions it in passing (a review of
  // a café by the building site): it gives nothing, as pages about something else give nothing.
  const about = pagesAboutTopic(input.topic, pages, boilerplate)
  const topical = candidates.filter(
    (candidate) => onTopic.has(candidate.sourceId) && (!about || about.has(candidate.sourceId)),
  )
  // On a page about the topic, a sentence that states a figure or a date is about it too, though it
  // says "the company" or "the line" instead of the topic's words, as a story does after its lede.
  const relevant = topical.filter((candidate) => candidate.relevance > 0 || candidate.states)
  // Nothing mentions the brief's words (another language, synonyms): the pages found for the brief by
  // their meaning give their opening sentences, the best remaining guess.
  const pool = mentions ? relevant : openingSentences(topical)
  const mostRelevant = Math.max(0, ...pool.map((candidate) => candidate.relevance))
  const score = (candidate: Candidate) =>
    candidate.form * (1 + (mostRelevant > 0 ? candidate.relevance / mostRelevant : 0))
  // The best few whatever they state; past those, only sentences that state a figure or a date: a
  // lede that names the topic, a quote, a scene, say less than the sentence beside them that counts.
  const checkable = pool.filter((candidate) => candidate.states)
  // The news is told near a story's top; what comes far below it (a scene, a statistic of the wider
  // picture, a person's age, the history) is the writer's background, unless another source tells it
  // too. Memory keeps it (rememberedBeside); the report does not show it.
  const told = pool.some((candidate) => candidate.position >= NEWS_DEPTH) ? toldElsewhere(pool) : new Set()
  const shown = (candidate: Candidate) => candidate.position < NEWS_DEPTH || told.has(candidate)
  // A sentence that states nothing checkable is a finding only when it names someone or something
  // beyond the topic: "Aldwyn Bank has abandoned its promise" tells who did what; "The biggest order on
  // Quillon Robotics' books has gone" is the lede of the story the sentences below it tell, and a
  // quote that states nothing is someone's view of it. Such sentences fill a report only when nothing
  // more specific is left (below), as the findings of a page that is no news story may all be.
  const topicTerms = new Set(contentTerms(input.topic))
  const specific = (candidate: Candidate) =>
    candidate.states || (!quotesSomeone(candidate.text) && namesActor(candidate.text, topicTerms))
  const shownPool = pool.filter((candidate) => shown(candidate) && specific(candidate))
  const shownCheckable = checkable.filter(shown)
  // A short report may still take a sentence from far down, and then a lede that states nothing.
  const left = (candidates: Candidate[]) =>
    candidates.some((candidate) => !chosen.includes(candidate) && !rejected.has(candidate))
  const firstFindings = () => (left(shownPool) ? shownPool : left(checkable) ? checkable : pool)
  let characters = 0
  while (chosen.length < MAX_FINDINGS && (chosen.length < MIN_FINDINGS || characters < FINDINGS_CHARACTERS)) {
    const next = pick(chosen.length >= MIN_FINDINGS ? shownCheckable : firstFindings(), score)
    if (!next) break
    chosen.push(next)
    characters += next.text.length
  }

  // Every focus area and framework section gets its best supporting sentence, if any source has one.
  // A sentence can support several focus areas, but belongs to one section only: the one it would be
  // shown under, so a section counts as covered exactly when its body will have something in it.
  const sections = (input.framework?.sections ?? []).map(target)
  const sectionOf = (candidate: Candidate) => bestSection(candidate, sections, weigh)
  const goals = [
    ...input.focus.map(target).map((focus) => ({
      target: focus,
      supports: (candidate: Candidate) => coverage(candidate, focus, weigh) >= TARGET_COVERAGE,
      gap: `Nothing in this run's sources addressed "${focus.label}".`,
    })),
    ...sections.map((section, index) => ({
      target: section,
      supports: (candidate: Candidate) => sectionOf(candidate) === index,
      gap: `Nothing in this run's sources addressed "${section.label}" (${input.framework?.name}).`,
    })),
  ].filter((goal) => goal.target.terms.length > 0)
  for (const goal of goals) {
    if (chosen.some(goal.supports)) continue
    const next = pick(
      topical.filter(goal.supports),
      (candidate) => coverage(candidate, goal.target, weigh) * candidate.form * (1 + candidate.relevance),
    )
    if (next) chosen.push(next)
  }

  // The sentence is its own quote: taken word for word from the page, as the quote check reads it.
  const findings = chosen.map((candidate) => ({
    text: candidate.text,
    quote: candidate.text,
    sourceIds: corroboratingSources(candidate, candidates),
  }))
  const gaps = goals.filter((goal) => !chosen.some(goal.supports)).map((goal) => goal.gap)
  const synthesis: Synthesis = { headline: headline(findings, input, relevant.length, onTopic.size), findings, gaps }
  const remembered = rememberedBeside(chosen, checkable, score)
  if (remembered.length > 0) synthesis.remembered = remembered
  if (input.reportStyle === 'framework' && input.framework) {
    synthesis.sections = sections.map((section, index) => {
      const lines = findings
        .filter((_, findingIndex) => sectionOf(chosen[findingIndex] as Candidate) === index)
        .map((finding) => `- ${finding.text} ${markers(finding.sourceIds)}`)
      return { title: section.label, body: lines.length > 0 ? lines.join('\n') : NO_EVIDENCE }
    })
  }
  const implications =
    input.reportStyle === 'executive' || input.reportStyle === 'memo'
      ? themeImplications(findings, queryTerms, weigh)
      : undefined
  if (implications) synthesis.implications = implications
  return synthesis
}

/**
 * What memory keeps beside the report: every other sentence that states a figure, a date or a decision
 * about the topic, best first, each once. The report shows a few; memory holding the rest means the
 * next run neither reports them as news nor misses a figure of theirs that changed.
 */
function rememberedBeside(
  chosen: Candidate[],
  checkable: Candidate[],
  score: (candidate: Candidate) => number,
): Finding[] {
  const texts = new Set(chosen.map((candidate) => candidate.text))
  const remembered: Finding[] = []
  for (const candidate of [...checkable].sort((a, b) => score(b) - score(a))) {
    if (remembered.length >= MAX_REMEMBERED) break
    if (texts.has(candidate.text)) continue
    texts.add(candidate.text)
    remembered.push({ text: candidate.text, quote: candidate.text, sourceIds: [candidate.sourceId] })
  }
  return remembered
}

function sentenceCandidates(pages: readonly ReadPage[], boilerplate: ReadonlySet<string>): Candidate[] {
  const candidates: Candidate[] = []
  const stem = stemsOnce()
  for (const source of pages) {
    let position = 0
    for (const paragraph of source.paragraphs) {
      for (const text of paragraph) {
        if (isBoilerplate(text, boilerplate) || speaksToReader(text)) continue
        const { signature, figures, dates, stance } = said(text)
        if (signature.terms.size === 0) continue
        const words = wordTokens(text).length
        // A decision is reported in the story's voice; one in quotation marks is someone's words, which
        // state something checkable only with a quantity or a date closer than a year ("40,000 tonnes a
        // year", "in the fourth quarter"), not "by 2:30" or "until 2028". A time of day alone ("more on
        // Drivetime from 4pm") states nothing either.
        const quoted = quotesSomeone(text)
        const decision = !quoted && decides(text, stem)
        const stated = withoutPersonsDescription(text)
        const states =
          !WIDER_PICTURE.test(text) &&
          (quoted
            ? quotesAFact(stated)
            : (DIGIT.test(stated) && DIGIT.test(withoutTimesOfDay(stated))) ||
              decision ||
              countsInWords(stated) ||
              PERSONNEL.test(stated))
        candidates.push({
          sourceId: source.id,
          position,
          text,
          signature,
          figures,
          dates,
          states,
          decides: decision,
          stance,
          form: formWeight(text, words, states),
          relevance: 0,
        })
        position += 1
      }
    }
  }
  return candidates
}

/**
 * A count written in words, as a newsroom writes a number that opens a sentence or is under ten
 * ("Thirty-eight jobs are to go", "Three stations have already shut", "fourteen productions"): of
 * three or more of a thing a noun names, not a length of time ("for four decades"), a time of day
 * ("at ten past eight") or a share ("a third"). "The two villages", "two of its projects" point at
 * things more often than they count them, and "a dozen supporters" is a crowd's size.
 */
function countsInWords(text: string): boolean {
  if (!COUNT_WORD.test(text)) return false
  return extractStatements(text).figures.some(
    (figure) =>
      figure.unit === '%' ||
      (figure.value >= 3 &&
        figure.unit !== '' &&
        countsANoun(figure) &&
        !isLengthOfTime(figure) &&
        figure.unit !== CLOCK_PAST &&
        !isShareInWords(figure)),
  )
}
const COUNT_WORD = new RegExp(`\\b(?:${NUMBER_WORDS.slice(2).join('|')}|hundred)\\b`, 'iu')
/** "Ten past eight" is a time of day, which figures.ts reads as ten of "past". */
const CLOCK_PAST = 'past'

/**
 * Who holds a post, changed: an appointment, a departure, a successor ("has been appointed to the
 * role on an interim basis", "has left the trust", "stood down as chair and has been replaced by",
 * "will become interim Chief Executive", "takes charge of the weekly").
 */
const PERSONNEL =
  /\b(?:(?:has|have|had) been|was|were|is|are|will be) (?:appointed|named as|hired|sacked|dismissed|replaced (?:as [\p{L} ]{1,40} )?by \p{Lu})|\b(?:has|have|had) left (?:the|his|her|their) |\b(?:has|have|had) left \p{Lu}|\b(?:has|have|had) (?:resigned|quit|stepped down|stood down)\b|\b(?:resigned|stepped down|stood down|steps down|stands down|will (?:step|stand) down|took over|takes over|will take over|(?:takes|took|will take) charge of|decided to (?:leave|quit|resign|step down|stand down)|will leave (?:when|after|at the end))\b|\bwill become (?:the )?(?:new |interim |acting )?\p{Lu}/u

/**
 * A sentence that sets the story beside others states the wider picture, not the topic's news: it
 * says where else it looks ("Elsewhere in the region, ...", "Nationally, about 78% of homes...",
 * "Neighbouring Caldermoor Police went down a similar road", "costs rose 9% across the country"),
 * or what holds for anyone ("Any party to the hearing may appeal within 21 days", "Under the
 * Licensing Act 2003, the council must...", "Anyone who notices a smell can report it"). English
 * newsroom usage: the scope is said before the figures it frames.
 */
const WIDER_PICTURE = new RegExp(
  [
    String.raw`^(?:elsewhere|nationally|nationwide|neighbou?ring)\b`,
    String.raw`^across the (?:country|sector|industry|region|nation|world)\b`,
    String.raw`^(?:any(?:one|body)\b|any \p{L}+ (?:who|that|to|of|with)\b)`,
    String.raw`^under (?:the )?[^,]{0,40}\b(?:act|law|rules|limits|regulations)\b`,
    String.raw`\b(?:across|throughout) (?:the (?:country|sector|industry|nation|world)|England|the UK|Britain|Scotland|Wales)\b`,
    String.raw`\bnational (?:review|average|figures|survey|picture)\b`,
  ].join('|'),
  'iu',
)

const FIRST_PERSON_SINGULAR = /\b(?:I|I'm|I’m|I've|I’ve|I'll|I’ll|I'd|I’d|me|my|mine)\b/u

/**
 * What describes a named person tells who they are, not what the story states: its figures are the
 * person's, not the topic's. A clause ("Gillian Rowe, who is 71 and has lived in Thornby since the
 * 1980s, keeps a notebook", "Dana Whitcomb, whose son is 12, said": "whose" only of family, as
 * "Kettlewick, whose 40 branches" is a company's), or an age set beside the name ("Mark Tunstall,
 * 38, left", "Doreen Underhill, now 85, had been sitting"). A group's clause
 * ("members, who voted 78% in favour") may be the topic's: one word opening the sentence is a
 * person's name when the tagger reads no plural there ("Brereton, who played 400 games").
 */
const PERSONS_DESCRIPTION =
  /(?<=\b\p{Lu}[\p{L}'’-]+),\s*(?:(?:who|whose (?:sons?|daughters?|child|children|husband|wife|partner|family|mother|father|parents|grandchildren))\b[^,;]*(?:,|$)|(?:now\s+|aged\s+)?\d{1,3},)/gu
function withoutPersonsDescription(text: string): string {
  return text.replace(PERSONS_DESCRIPTION, (description, offset: number) => {
    // A single word before it at the sentence's start may be a group ("Members, who voted...").
    const opening = text.slice(0, offset)
    return /^\p{Lu}[\p{L}'’-]+$/u.test(opening) && isPluralNoun(opening) ? description : ' '
  })
}

/**
 * A quote states a quantity or a date closer than a year, and not in the speaker's own first person:
 * "I have lived here 31 years", "I'm 86 and I've got two new knees" tell who is speaking.
 */
function quotesAFact(text: string): boolean {
  if (!DIGIT.test(text) || quotedSpans(text).some((words) => FIRST_PERSON_SINGULAR.test(words))) return false
  const { figures, dates } = extractStatements(text)
  return figures.some((figure) => figure.unit !== '' && !isTimeOfDay(figure)) || dates.some((date) => date.length > 4)
}

/**
 * Prefers sentences of a readable length that state something checkable (a number, a date), and that
 * say what they are about: one opening with a word that points back ("It said...", "They can be
 * stored...", "Before it, ...") needs the sentence before it, which a finding does not show.
 */
function formWeight(text: string, words: number, states: boolean): number {
  const length = words < 8 ? 0.5 : words <= 40 ? 1 : words <= 70 ? 0.7 : 0.4
  const figures = states ? FIGURE_WEIGHT : 1
  const standsAlone = POINTS_BACK.test(text) && !NOW.test(text) ? POINTING_BACK_WEIGHT : 1
  const dated = states && NEWS_PEG.test(text) ? NEWS_PEG_WEIGHT : 1
  return length * figures * standsAlone * dated
}

/**
 * The news peg: a day of the news cycle ("on Tuesday", "Monday's meeting", "yesterday", "this week",
 * "last month", "on 14 May"). A newsroom dates the event a story reports and leaves background
 * undated, so a sentence that states something on such a day is more likely the news than one that
 * states it undated (on the development pool's re-runs, 83% of such sentences were facts the earlier
 * run's pages did not state, against 54% of the others that state something).
 */
const NEWS_PEG = new RegExp(
  String.raw`\b(?:${WEEKDAYS.join('|')}|yesterday|today|tonight|` +
    `this (?:week|morning|afternoon|evening|month)|last (?:week|night|month)|` +
    String.raw`on \d{1,2} (?:${MONTH_NAMES.join('|')}))\b`,
  'iu',
)
/** A sentence dated to the news cycle counts as much again as one undated, as a figure does. */
const NEWS_PEG_WEIGHT = 2

/** Sums IDF over all sentences of the run: a word in most sentences says little about any of them. */
function idfWeigher(candidates: Candidate[]): Weigh {
  const documentFrequency = new Map<string, number>()
  for (const { signature } of candidates) {
    for (const term of signature.terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1)
  }
  const total = candidates.length
  return (terms) => {
    let sum = 0
    // A word no sentence holds is as rare as a word can be.
    for (const term of terms) sum += Math.log(1 + total / (documentFrequency.get(term) ?? 1))
    return sum
  }
}

function pickBest(
  pool: Candidate[],
  score: (candidate: Candidate) => number,
  chosen: Candidate[],
  rejected: Set<Candidate>,
  known: Said[],
): Candidate | undefined {
  const perSource = new Map<number, number>()
  for (const { sourceId } of chosen) perSource.set(sourceId, (perSource.get(sourceId) ?? 0) + 1)
  for (;;) {
    let best: Candidate | undefined
    let bestScore = 0
    for (const candidate of pool) {
      if (rejected.has(candidate) || chosen.includes(candidate)) continue
      const value = score(candidate) * SAME_SOURCE_DECAY ** (perSource.get(candidate.sourceId) ?? 0)
      if (value > bestScore) {
        best = candidate
        bestScore = value
      }
    }
    if (!best) return undefined
    const repeats =
      [...known, ...chosen].some((other) => saysAgain(best as Candidate, other)) || decidedAgain(best, known)
    if (!repeats) return best
    rejected.add(best)
  }
}

type Said = Pick<Candidate, 'signature' | 'figures' | 'dates' | 'stance'>

function said(text: string): Said {
  let statements: Statements | undefined
  let stance: number | undefined
  const read = () => {
    statements ??= extractStatements(text)
    return statements
  }
  return {
    signature: findingSignature(text),
    figures: () => read().figures,
    dates: () => read().dates,
    stance: () => {
      stance ??= stanceSign(polarity(text))
      return stance
    },
  }
}

/**
 * The same finding in other words: most of its words, or every figure it states about a thing they
 * both name ("21,000 riders a day" / "some 21,000 people use it daily"), in the same stance. A figure
 * it states that the other does not ("24,500, up from 21,000") is news.
 */
function saysAgain(candidate: Candidate, other: Said): boolean {
  // A decision turned round is news, in the same words or with the same figure: "suspended the
  // strikes planned for March" after "strikes are planned for March", "withdrew its £2.5m pledge"
  // after "pledged £2.5m", "approved the grant" after "voted the grant down" (a "not" alone is no
  // decision).
  if (candidate.decides) {
    // (Stances are read only for a decision: each is a tagger's pass over the sentence.)
    const [mine, its] = [candidate.stance(), other.stance()]
    if ((mine < 0 && its >= 0) || (mine > 0 && its < 0)) return false
  }
  if (sameFinding(candidate.signature, other.signature)) return true
  // A share in words or a time of day is a round number: it meets another by chance ("a third of its
  // sales" / "a third of the cost of recycling").
  const figures = candidate.figures().filter((figure) => !isShareInWords(figure) && !isTimeOfDay(figure))
  if (figures.length === 0) return false
  // The same number is the same figure under another noun ("21,000 riders" / "21,000 people", "19
  // teaching posts" / "19 vacancies"), not as a count of things and a measure ("two makers" / "two years").
  const theirs = other.figures()
  if (!figures.every((figure) => theirs.some((their) => statesCount(figure, their)))) return false
  for (const term of candidate.signature.terms) if (other.signature.terms.has(term)) return true
  return false
}

/**
 * A decision that states no figure, taken again: what memory already holds in the same stance on a
 * thing both name ("the council approved the stadium in April" / "the committee granted
 * planning permission for the stadium"). Not when memory also holds the opposite on that thing: the
 * insurer that refused and now pays again takes a side, and that is news.
 */
function decidedAgain(candidate: Candidate, others: Said[]): boolean {
  if (!candidate.decides || candidate.figures().length > 0) return false
  const stance = candidate.stance()
  if (stance === 0) return false
  // The same thing: half the shorter one's words, two at least. Disputed: memory holds the opposite
  // on anything they share two words of.
  const again = others.some((other) => other.stance() === stance && sharedWords(candidate, other, 0.5))
  return again && !others.some((other) => other.stance() === -stance && sharedWords(candidate, other, 0))
}

function sharedWords(candidate: Said, other: Said, ofShorter: number): boolean {
  const theirs = other.signature.terms
  const shared = [...candidate.signature.terms].filter((term) => theirs.has(term)).length
  const shorter = Math.min(candidate.signature.terms.size, theirs.size)
  return shared >= Math.max(MIN_SHARED_DECISION_WORDS, Math.ceil(shorter * ofShorter))
}

/**
 * The sentences that state a figure or a date another source states too (a figure with its unit or a
 * bare number of ten or more, not a share in words or a time of day; a month or a day, not a year
 * alone): what two outlets report is the news; a scene, a person's age, a statistic of the wider
 * picture is one writer's colour.
 */
function toldElsewhere(pool: Candidate[]): Set<Candidate> {
  const keysOf = (candidate: Candidate) => [
    ...candidate
      .figures()
      .filter(
        (figure) =>
          !isShareInWords(figure) && !isTimeOfDay(figure) && (figure.unit !== '' || Math.abs(figure.value) >= 10),
      )
      .map((figure) => `${figure.value} ${figure.unit}`),
    ...candidate.dates().filter((date) => date.length > 4),
  ]
  const sources = new Map<string, Set<number>>()
  const keyed = pool
    .filter((candidate) => candidate.states && DIGIT.test(candidate.text))
    .map((candidate) => ({ candidate, keys: keysOf(candidate) }))
  for (const { candidate, keys } of keyed)
    for (const key of keys) sources.set(key, (sources.get(key) ?? new Set()).add(candidate.sourceId))
  return new Set(
    keyed.filter(({ keys }) => keys.some((key) => (sources.get(key)?.size ?? 0) > 1)).map(({ candidate }) => candidate),
  )
}

/**
 * Whether a sentence names who acts, other than its topic: a name before its first verb ("Aldwyn Bank
 * has abandoned", "The Minister for Health, Owen Tallis, has asked"), not one the topic's words make,
 * nor a place or a day named after the verb ("has divided Harrowby", "on Saturday morning").
 */
function namesActor(text: string, topicTerms: ReadonlySet<string>): boolean {
  for (const [index, { word, tag }] of taggedTokens(text).entries()) {
    if (tag === 'VERB' || tag === 'AUX') return false
    if (!/^\p{Lu}/u.test(word) || tag !== 'PROPN') continue
    // A sentence's first word takes a capital whatever it is: "Campaigners say", "Patients who".
    if (index === 0 && isPluralNoun(word)) continue
    const terms = contentTerms(word)
    if (terms.length > 0 && terms.every((term) => !topicTerms.has(term))) return true
  }
  return false
}

function openingSentences(candidates: Candidate[]): Candidate[] {
  return candidates.filter((candidate) => candidate.position === 0)
}

/** The sentence's own source first, then other sources that say the same thing. */
function corroboratingSources(candidate: Candidate, candidates: Candidate[]): number[] {
  const ids = [candidate.sourceId]
  for (const other of candidates) {
    if (!ids.includes(other.sourceId) && sameFinding(candidate.signature, other.signature)) ids.push(other.sourceId)
  }
  return ids
}

function target(label: string): Target {
  return { label, terms: contentTerms(label) }
}

function coverage(candidate: Candidate, target: Target, weigh: Weigh): number {
  const whole = weigh(new Set(target.terms))
  if (whole === 0) return 0
  return weigh(new Set(target.terms.filter((term) => candidate.signature.terms.has(term)))) / whole
}

/** The section whose title words a sentence covers best (at least half their weight), or -1. */
function bestSection(candidate: Candidate, sections: Target[], weigh: Weigh): number {
  let best = -1
  let bestCoverage = 0
  sections.forEach((section, index) => {
    const value = coverage(candidate, section, weigh)
    if (value >= TARGET_COVERAGE && value > bestCoverage) {
      best = index
      bestCoverage = value
    }
  })
  return best
}

/**
 * The words (beyond the brief's own) that recur in findings from at least two sources, with where.
 * It counts, it does not reason, and says so. Undefined when no word recurs: no filler section.
 */
function themeImplications(findings: Finding[], queryTerms: Set<string>, weigh: Weigh): string | undefined {
  const holders = new Map<string, number[]>()
  findings.forEach((finding, index) => {
    for (const term of new Set(themeWords(finding.text, queryTerms).map(({ term }) => term))) {
      holders.set(term, [...(holders.get(term) ?? []), index])
    }
  })
  const sourcesOf = (indexes: number[]) => [...new Set(indexes.flatMap((index) => findings[index]?.sourceIds ?? []))]
  // Shared by the most sources first, then the most findings; among equals the rarer word.
  const themes = [...holders]
    .filter(([, indexes]) => indexes.length >= 2 && sourcesOf(indexes).length >= 2)
    .sort(
      ([x, xs], [y, ys]) =>
        sourcesOf(ys).length - sourcesOf(xs).length || ys.length - xs.length || weigh([y]) - weigh([x]),
    )
    .slice(0, MAX_THEMES)
  if (themes.length === 0) return undefined
  const lines = themes.map(([term, indexes]) => {
    const word = surfaceForm(term, findings[indexes[0] as number]?.text ?? term)
    return `- "${word}": ${indexes.length} of the ${findings.length} findings ${markers(sourcesOf(indexes))}`
  })
  return [
    'Words that recur in findings from more than one source, counted in the extracted sentences (not reasoned conclusions):',
    ...lines,
  ].join('\n')
}

/**
 * The findings are the sources' own sentences and the best of them is listed first, so the headline
 * says what the report holds instead of repeating it.
 */
function headline(findings: Finding[], input: SynthesisInput, relevantSentences: number, onTopic: number): string {
  const topic = shorten(input.topic.replace(/\s+/g, ' ').trim(), TOPIC_CHARACTERS)
  if (findings.length > 0) {
    const sources = new Set(findings.flatMap((finding) => finding.sourceIds)).size
    const counts = `${plural(findings.length, 'finding')} extracted from ${plural(sources, 'source')}`
    return topic ? `${capitalized(topic)}: ${counts}` : capitalized(counts)
  }
  if (input.sources.length === 0) return 'No new sources were read in this run'
  if (onTopic === 0) return `No page read in this run is about ${topic}`
  if (relevantSentences > 0) return 'The sources read in this run repeat what memory already holds'
  return "No sentence in this run's sources matched the brief"
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/** "heat pumps" becomes "Heat pumps"; a first word with a capital already ("iPhone") is kept. */
function capitalized(text: string): string {
  const first = text.split(' ')[0] ?? ''
  return first === first.toLowerCase() ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text
  const cut = text.slice(0, limit)
  const lastSpace = cut.lastIndexOf(' ')
  // Text without spaces (Chinese, Japanese) is cut at the character limit instead.
  const kept = lastSpace > limit / 2 ? cut.slice(0, lastSpace) : cut
  return `${kept.replace(/[\s\p{P}]+$/u, '')}…`
}

function noUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0 }
}

// The language model used when none is configured. It writes nothing of its own: findings are
// sentences taken from the sources, ranked against the brief, each cited to the source it came from.

import type { Nodes } from 'mdast'
import { renderedText } from '#server/claims/quote.ts'
import { contentTerms, type FindingSignature, findingSignature, sameFinding } from '#server/claims/terms.ts'
import type { Finding, LanguageModel, Synthesis, SynthesisInput, Usage } from '#server/providers/types.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import { NO_EVIDENCE, themeWords } from '#server/research/report.ts'
import { normalizeLineEndings, parseBlocks } from '#server/text/markdown/parse.ts'
import { wordTokens } from '#server/text/words.ts'

// A fixed locale so sentence breaks do not depend on the host's default.
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

const MIN_FINDINGS = 5
const MAX_FINDINGS = 8
const MIN_SENTENCE_WORDS = 3
const TOPIC_CHARACTERS = 60
/** Each further pick from one source counts for less, so one long page does not fill the report. */
const SAME_SOURCE_DECAY = 0.75
/** A sentence supports a focus area or section when it holds this share of its words' weight. */
const TARGET_COVERAGE = 0.5
const MAX_THEMES = 3

// Front matter is a `---` block of `key: value` lines at the very top.
const FRONT_MATTER_FENCE = /^(?:---|\.\.\.)$/u
const FRONT_MATTER_FIELD = /^[a-z_][\w-]*:(?:\s|$)/u
// Within a paragraph: a table's row is not prose; a list marker (markdown's, or a page's "•") opens
// an item of its own, and it and a quote's ">" are not part of the words.
const TABLE_ROW = /^\|/u
const LIST_MARKER = /^(?:[-*+•·]|\d{1,3}[.)])\s+/u
const QUOTE_MARKER = /^(?:>\s?)+/u
// A sentence opens with a capital, a digit, a currency sign or a quote, or with a letter of a script
// that has no case (Chinese, Arabic, Hebrew...); it closes with terminal punctuation, maybe followed
// by a closing quote or bracket. An ellipsis does not close one: it marks text that was cut.
const SENTENCE_START = /^[\p{Lu}\p{Lt}\p{Lo}\p{Nd}\p{Sc}"'“‘«„¿¡]/u
const SENTENCE_END = /(?<!\.\.)[.!?。！？]["'”’»)\]]*$/u
const LOWERCASE_START = /^\p{Ll}/u
const DIGIT = /\p{Nd}/u

type Candidate = {
  sourceId: number
  position: number
  text: string
  signature: FindingSignature
  /** Weight for length, numbers and form, whatever the sentence says. */
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
  const candidates = sentenceCandidates(input.sources)
  const weigh = idfWeigher(candidates)
  const queryTerms = new Set(contentTerms([input.topic, input.objective ?? '', ...input.focus].join(' ')))
  for (const candidate of candidates) {
    candidate.relevance = weigh([...candidate.signature.terms].filter((term) => queryTerms.has(term)))
  }
  const known = input.knownFacts.map(findingSignature)
  const chosen: Candidate[] = []
  const rejected = new Set<Candidate>()
  const pick = (pool: Candidate[], score: (candidate: Candidate) => number) =>
    pickBest(pool, score, chosen, rejected, known)

  const relevant = candidates.filter((candidate) => candidate.relevance > 0)
  // Nothing mentions the brief's words (another language, synonyms): the pages were found for the
  // brief, so their opening sentences are the best remaining guess.
  const pool = relevant.length > 0 ? relevant : openingSentences(candidates)
  const wanted = Math.min(MAX_FINDINGS, Math.max(MIN_FINDINGS, input.sources.length))
  while (chosen.length < wanted) {
    const next = pick(pool, (candidate) => (candidate.relevance || 1) * candidate.form)
    if (!next) break
    chosen.push(next)
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
      candidates.filter(goal.supports),
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
  const synthesis: Synthesis = { headline: headline(findings, input, relevant.length), findings, gaps }
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

function sentenceCandidates(sources: SynthesisInput['sources']): Candidate[] {
  const candidates: Candidate[] = []
  for (const source of sources) {
    let position = 0
    for (const paragraph of proseParagraphs(source.text)) {
      for (const text of sentences(paragraph)) {
        const signature = findingSignature(text)
        if (signature.terms.size === 0) continue
        const words = wordTokens(text).length
        candidates.push({ sourceId: source.id, position, text, signature, form: formWeight(text, words), relevance: 0 })
        position += 1
      }
    }
  }
  return candidates
}

/**
 * A source's text as paragraphs of plain prose, each on one line. Pages and corpus files are often
 * markdown hard-wrapped at a fixed width, and ICU ends a sentence at every newline, so a sentence's
 * second line would read as a sentence of its own: lines of a paragraph are joined first. Which lines
 * are paragraphs is the markdown parser's call (server/text/markdown/parse.ts): front matter,
 * headings, rules, tables and code are not prose. List items and lines much shorter than the text's
 * longest (a title without `#`) stand as paragraphs of their own.
 */
export function proseParagraphs(text: string): string[] {
  const page = withoutFrontMatter(normalizeLineEndings(text))
  // As a reader sees it (links keep their text, no emphasis), and footnotes ("[12]", which would read
  // as citations of this run's sources) go before segmenting, or ICU breaks inside "2026.[3] The".
  // The quote check reads pages the same way, so every sentence taken here is found there.
  const read = (lines: string[]) =>
    renderedText(lines.join('\n'))
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
  const longest = read([page]).reduce((most, line) => Math.max(most, line.length), 0)
  const paragraphs: string[] = []
  for (const lines of paragraphLines(page)) {
    let current: string[] = []
    const flush = () => {
      const paragraph = current.join(' ').replace(/\s+/g, ' ').trim()
      if (paragraph) paragraphs.push(paragraph)
      current = []
    }
    for (const line of read(lines)) {
      if (!line || TABLE_ROW.test(line)) {
        flush()
        continue
      }
      if (LIST_MARKER.test(line)) flush()
      current.push(line.replace(QUOTE_MARKER, '').replace(LIST_MARKER, ''))
      // A wrapped line runs close to the wrap width; one far shorter, not ending mid-clause, ends
      // its paragraph (a title without `#` must not run into the sentence below it).
      if (line.length < longest / 2 && !/[,;:–—-]$/u.test(line)) flush()
    }
    flush()
  }
  return paragraphs
}

/** The lines of each paragraph of `page`, in order; past what the parser reads, each stretch between blank lines. */
function paragraphLines(page: string): string[][] {
  const lines = page.split('\n')
  const { tree, unread } = parseBlocks(page)
  const groups: string[][] = []
  const stack: Nodes[] = [tree]
  while (stack.length > 0) {
    const node = stack.pop() as Nodes
    if (node.type === 'paragraph' && node.position) {
      groups.push(lines.slice(node.position.start.line - 1, node.position.end.line))
    } else if ('children' in node) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Nodes)
    }
  }
  let rest: string[] = []
  for (const line of lines.slice(unread)) {
    if (line.trim()) rest.push(line)
    else if (rest.length > 0) {
      groups.push(rest)
      rest = []
    }
  }
  if (rest.length > 0) groups.push(rest)
  return groups
}

/** Drops a leading `---` block of `key: value` lines, closed or (in text cut short) not. */
function withoutFrontMatter(text: string): string {
  const lines = text.trimStart().split(/\r?\n/)
  if (lines[0]?.trim() !== '---') return text
  let index = 1
  while (index < lines.length && (FRONT_MATTER_FIELD.test(lines[index] ?? '') || !lines[index]?.trim())) index += 1
  if (FRONT_MATTER_FENCE.test(lines[index]?.trim() ?? '')) index += 1
  return lines.slice(index).join('\n')
}

/**
 * A paragraph's complete sentences. ICU also breaks after "Dr." and "U.S.": a fragment too short to
 * be a sentence joins the next one, and a piece starting in lower case continues the one before.
 * What is left must open and close like a sentence, so the tail of a text cut mid-sentence is dropped.
 */
function sentences(paragraph: string): string[] {
  const pieces: string[] = []
  let carried = ''
  for (const { segment } of sentenceSegmenter.segment(paragraph)) {
    const text = `${carried} ${segment}`.trim()
    carried = ''
    if (!text) continue
    if (pieces.length > 0 && LOWERCASE_START.test(text)) {
      pieces.push(`${pieces.pop()} ${text}`)
    } else if (wordTokens(text).length < MIN_SENTENCE_WORDS && text.endsWith('.')) {
      carried = text
    } else {
      pieces.push(text)
    }
  }
  return pieces.filter(isSentence)
}

function isSentence(text: string): boolean {
  return SENTENCE_START.test(text) && SENTENCE_END.test(text) && wordTokens(text).length >= MIN_SENTENCE_WORDS
}

/** Prefers sentences of a readable length that state something checkable (a number, a date). */
function formWeight(text: string, words: number): number {
  const length = words < 8 ? 0.5 : words <= 40 ? 1 : words <= 70 ? 0.7 : 0.4
  const figures = DIGIT.test(text) ? 1.25 : 1
  return length * figures
}

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
  known: FindingSignature[],
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
    const signature = best.signature
    const repeats =
      known.some((fact) => sameFinding(signature, fact)) ||
      chosen.some((candidate) => sameFinding(signature, candidate.signature))
    if (!repeats) return best
    rejected.add(best)
  }
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

function surfaceForm(term: string, text: string): string {
  return themeWords(text).find((word) => word.term === term)?.word ?? term
}

/**
 * The findings are the sources' own sentences and the best of them is listed first, so the headline
 * says what the report holds instead of repeating it.
 */
function headline(findings: Finding[], input: SynthesisInput, relevantSentences: number): string {
  if (findings.length > 0) {
    const sources = new Set(findings.flatMap((finding) => finding.sourceIds)).size
    const counts = `${plural(findings.length, 'finding')} extracted from ${plural(sources, 'source')}`
    const topic = shorten(input.topic.replace(/\s+/g, ' ').trim(), TOPIC_CHARACTERS)
    return topic ? `${capitalized(topic)}: ${counts}` : capitalized(counts)
  }
  if (input.sources.length === 0) return 'No new sources were read in this run'
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

function markers(ids: number[]): string {
  return ids.map((id) => `[${id}]`).join('')
}

function noUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0 }
}

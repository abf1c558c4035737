// The stand-in for a language model that is faithful but sloppy, at set rates. Its synthesis reports
// every fact the pages state (the known ones too, whatever the prompt asks), quoting the page's
// sentence, but it paraphrases, cites a wrong source, invents quotes and misstates figures. Its judge
// is competent, recognising a fact's version from the registry of wordings as a capable model would
// from reading, but answers at random at a set rate. It only ever reads the texts in the prompt.

import { lookup, normalizeText, type RegistryEntry } from '#bench/quality/registry.ts'
import { createRng, type Rng } from '#bench/quality/rng.ts'
import type { Fact } from '#bench/quality/web.ts'
import { pairPrompt, type StubReply, type StubRequest, synthesisSources } from '#test/support/stub-openai.ts'

export type Sloppiness = {
  /** The claim's text is another wording of the same fact version (same figures). */
  paraphrase: number
  /** The claim cites another source than the page that holds its quote. */
  wrongSource: number
  /** The quote is a plausible sentence that is on no page (another wording of the fact). */
  inventedQuote: number
  /** The claim's text states a figure or date its (correct) quote does not. */
  misstatedFigure: number
  /** The judge answers a random verdict and match instead of reading. */
  judgeRandom: number
}

export const SLOPPINESS: Sloppiness = {
  paraphrase: 0.3,
  wrongSource: 0.15,
  inventedQuote: 0.1,
  misstatedFigure: 0.1,
  judgeRandom: 0.15,
}

/** What the model did, counted, so the report can show the stub's sloppiness next to the engine's numbers. */
export type SloppyLog = {
  claims: number
  paraphrased: number
  miscited: number
  invented: number
  misstated: number
  judged: number
  judgedAtRandom: number
}

/** What the model did to each fact version's claims, and what the judge saw: to explain a mistake. */
export type ModelTrace = {
  claims: Map<string, Array<{ at: number; text: string; quote: string; sloppy: string[] }>>
  verdicts: Map<string, { at: number; candidates: string[]; verdict: string; match: number | null; random: boolean }>
}

export function emptyTrace(): ModelTrace {
  return { claims: new Map(), verdicts: new Map() }
}

export type Knowledge = { facts: Map<string, Fact>; registry: Map<string, RegistryEntry> }

export function emptyLog(): SloppyLog {
  return { claims: 0, paraphrased: 0, miscited: 0, invented: 0, misstated: 0, judged: 0, judgedAtRandom: 0 }
}

/** Draws the randomness of one decision from what it is about, so parallel runs cannot change it. */
export type RngFor = (...parts: Array<string | number>) => Rng

/** Answers the engine's plan, synthesis and judge calls. */
export function createSloppyModel(options: {
  seed: number
  knowledge: () => Knowledge
  rates?: Sloppiness
  log: SloppyLog
  trace?: ModelTrace
}): (request: StubRequest) => StubReply {
  const rates = options.rates ?? SLOPPINESS
  const rngFor: RngFor = (...parts) => createRng(options.seed, ...parts)
  return (request) => {
    const topic = /^Topic: (.+)$/m.exec(request.text)?.[1] ?? 'the topic'
    if (request.kind === 'plan') {
      // Every query names the topic first, so the search stub knows whose pages to return.
      const count = Number(/Return at most (\d+) queries/.exec(request.text)?.[1] ?? 3)
      const angle = request.text.includes('This is a follow-up round') ? 'open question' : 'angle'
      return { content: { queries: Array.from({ length: count }, (_, i) => `${topic} ${angle} ${i + 1}`) } }
    }
    if (request.kind === 'synthesize') {
      const findings = sloppyFindings(request.text, options.knowledge(), rates, rngFor, options.log, options.trace)
      return {
        content: { headline: `What is new on ${topic}`, findings, sections: null, implications: null, gaps: [] },
      }
    }
    if (request.kind === 'judge')
      return {
        content: {
          verdicts: sloppyVerdicts(request.text, options.knowledge(), rates, rngFor, options.log, options.trace),
        },
      }
    if (request.kind === 'pairs')
      return { content: { answers: sloppyPairs(request.text, options.knowledge(), rates, rngFor, options.log) } }
    return { status: 400, error: { message: 'The sloppy model has no answer for this request.' } }
  }
}

type Finding = { text: string; quote: string; sourceIds: number[] }

export function sloppyFindings(
  prompt: string,
  knowledge: Knowledge,
  rates: Sloppiness,
  rngFor: RngFor,
  log: SloppyLog,
  trace?: ModelTrace,
): Finding[] {
  const started = Date.now()
  const sources = synthesisSources(prompt)
  const onPages = normalizeText(sources.map((source) => source.text).join('\n'))
  // One claim per distinct fact sentence, citing every page that holds it.
  const claims = new Map<string, Finding & { fact: string; version: number }>()
  for (const source of sources) {
    for (const sentence of splitSentences(source.text)) {
      const entry = lookup(knowledge.registry, sentence)
      if (entry?.kind !== 'fact') continue
      const key = normalizeText(sentence)
      const known = claims.get(key)
      if (known) known.sourceIds.push(source.id)
      else
        claims.set(key, {
          text: sentence,
          quote: sentence,
          sourceIds: [source.id],
          fact: entry.fact,
          version: entry.version,
        })
    }
  }
  return [...claims.values()].map((claim) => {
    log.claims += 1
    const rng = rngFor('claim', claim.quote)
    const wordings = knowledge.facts.get(claim.fact)?.versions[claim.version]?.wordings ?? []
    const others = wordings.filter((wording) => normalizeText(wording) !== normalizeText(claim.quote))
    let { text, quote, sourceIds } = claim
    const sloppy: string[] = []
    if (rng.chance(rates.paraphrase) && others.length > 0) {
      text = rng.pick(others)
      log.paraphrased += 1
      sloppy.push('paraphrased')
    }
    if (rng.chance(rates.wrongSource)) {
      // Ordered by text, not by id: the engine numbers sources in the order searches returned them.
      const elsewhere = sources
        .filter((source) => !sourceIds.includes(source.id))
        .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
      if (elsewhere.length > 0) {
        sourceIds = [rng.pick(elsewhere).id]
        log.miscited += 1
        sloppy.push('wrong source')
      }
    }
    if (rng.chance(rates.inventedQuote)) {
      const unseen = others.filter((wording) => !onPages.includes(normalizeText(wording).replace(/\.$/, '')))
      quote = unseen.length > 0 ? rng.pick(unseen) : `${quote.replace(/\.$/, '')}, the company confirmed.`
      log.invented += 1
      sloppy.push('invented quote')
    }
    if (rng.chance(rates.misstatedFigure) && /\d/.test(text)) {
      text = misstate(text)
      log.misstated += 1
      sloppy.push('misstated figure')
    }
    const key = `${claim.fact}@${claim.version}`
    const traced = trace?.claims.get(key)?.filter((entry) => entry.at >= started) ?? []
    trace?.claims.set(key, [...traced, { at: started, text, quote, sloppy }])
    return { text, quote, sourceIds }
  })
}

/** The page's sentences: the web writes plain prose, sentences ending in a full stop and a space. */
export function splitSentences(text: string): string[] {
  // By paragraph, then by the segmenter's sentences: a sentence ending in a closing quotation mark
  // ('..., she said."') ends where the next paragraph begins.
  return text
    .split(/\n\s*\n/u)
    .flatMap((paragraph) => [...sentenceSegmenter.segment(paragraph)].map(({ segment }) => segment.trim()))
    .filter(Boolean)
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

/**
 * The first figure of the text made about 10% larger, in the same format: "$80/kWh" -> "$88/kWh".
 * A number glued to a word ("R290") is a name, not a figure, as the engine reads it too.
 */
export function misstate(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)/u, (digits) => {
    const value = Number(digits.replaceAll(',', ''))
    const decimals = digits.split('.')[1]?.length ?? 0
    let next = Number((value * 1.1).toFixed(decimals))
    if (next === value) next = value + 10 ** -decimals
    const formatted = next.toFixed(decimals)
    return digits.includes(',')
      ? Number(formatted).toLocaleString('en-US', { minimumFractionDigits: decimals })
      : formatted
  })
}

type Verdict = { claim: number; verdict: 'new' | 'updated' | 'contradicted' | 'confirmed'; match: number | null }
const VERDICTS = ['new', 'updated', 'contradicted', 'confirmed'] as const

export function sloppyVerdicts(
  prompt: string,
  knowledge: Knowledge,
  rates: Sloppiness,
  rngFor: RngFor,
  log: SloppyLog,
  trace?: ModelTrace,
): Verdict[] {
  const items = parseJudgePrompt(prompt)
  return items.map((item) => {
    log.judged += 1
    const rng = rngFor('judge', item.text)
    const random = rng.chance(rates.judgeRandom)
    let answer: Pick<Verdict, 'verdict' | 'match'>
    if (random) {
      log.judgedAtRandom += 1
      const verdict = rng.pick(VERDICTS)
      const match = verdict === 'new' || item.candidates.length === 0 ? null : rng.int(0, item.candidates.length - 1)
      answer = { verdict: match === null ? 'new' : verdict, match }
    } else {
      answer = readVerdict(item, knowledge)
    }
    trace?.verdicts.set(item.text, { at: Date.now(), candidates: item.candidates, ...answer, random })
    return { claim: item.claim, ...answer }
  })
}

/**
 * The second reading (server/providers/llm/judge.ts, pairMessages): a claim beside one memory claim.
 * The judge reads it as it reads a claim among all of memory, and answers at random at the same
 * rate, drawn apart from its first reading: another question, in another form.
 */
export function sloppyPairs(
  prompt: string,
  knowledge: Knowledge,
  rates: Sloppiness,
  rngFor: RngFor,
  log: SloppyLog,
): Array<{ pair: number; verdict: Verdict['verdict'] }> {
  return pairPrompt(prompt).map(({ pair, claim: text, known }) => {
    log.judged += 1
    const rng = rngFor('pair', text, known)
    if (rng.chance(rates.judgeRandom)) {
      log.judgedAtRandom += 1
      return { pair, verdict: rng.pick(VERDICTS) }
    }
    const { verdict } = readVerdict({ claim: 0, text, candidates: [known], closest: [0] }, knowledge)
    return { pair, verdict }
  })
}

/** What a careful reader would answer: the same fact at the same version, an earlier one, or its opposite. */
function readVerdict(item: JudgePromptItem, knowledge: Knowledge): Pick<Verdict, 'verdict' | 'match'> {
  const claim = lookup(knowledge.registry, item.text)
  if (claim?.kind !== 'fact') return { verdict: 'new', match: null }
  // Of memory's wordings of the fact, the ones named closest to the claim first.
  const order = [...new Set([...item.closest, ...item.candidates.keys()])]
  const same = order
    .map((index) => ({ index, entry: lookup(knowledge.registry, item.candidates[index] ?? '') }))
    .flatMap(({ index, entry }) =>
      entry?.kind === 'fact' && entry.fact === claim.fact ? [{ index, version: entry.version }] : [],
    )
  const identical = same.find((candidate) => candidate.version === claim.version)
  if (identical) return { verdict: 'confirmed', match: identical.index }
  const earlier = same.filter((candidate) => candidate.version < claim.version).sort((a, b) => b.version - a.version)[0]
  if (!earlier) return { verdict: 'new', match: null }
  const versions = knowledge.facts.get(claim.fact)?.versions ?? []
  const flipped = versions[earlier.version]?.positive !== versions[claim.version]?.positive
  return { verdict: flipped ? 'contradicted' : 'updated', match: earlier.index }
}

/**
 * The judge prompt of server/providers/llm/judge.ts: memory once ("M3: <memory>…</memory>"), then
 * "Claim n: <claim>…</claim> (closest: M3, M5)". Every claim may be matched with any memory claim
 * (`candidates` is all of memory shown), as a reader of the whole prompt would; the closest are hints.
 */
export function parseJudgePrompt(prompt: string): JudgePromptItem[] {
  const memory: string[] = []
  const items: JudgePromptItem[] = []
  for (const line of prompt.split('\n')) {
    const known = /^M(\d+): <memory>(.*)<\/memory>$/.exec(line)
    if (known) memory[Number(known[1])] = known[2] as string
    const claim = /^Claim (\d+): <claim>(.*)<\/claim>(?: \(closest: ([M\d, ]+)\))?$/.exec(line)
    if (!claim) continue
    const closest = [...(claim[3] ?? '').matchAll(/M(\d+)/g)].map((hint) => Number(hint[1]))
    items.push({ claim: Number(claim[1]), text: claim[2] as string, candidates: memory, closest })
  }
  return items
}

type JudgePromptItem = { claim: number; text: string; candidates: string[]; closest: number[] }

import { expect, test } from 'vitest'
import { foldVector, packVector } from '#server/claims/vectors.ts'
import { verifyClaims } from '#server/claims/verify.ts'
import type { LanguageModel } from '#server/providers/types.ts'
import { classifyRunClaims } from '#server/research/delta.ts'
import type { Fact, TopicMemory } from '#server/topics/contract.ts'

/** A vector of its own for each text. */
const vectorOf = (text: string) => Array.from({ length: 8 }, (_, i) => text.charCodeAt(i % text.length) * (i + 1))

const page =
  'Sodium-ion pack prices fell to 60 dollars per kWh in the third quarter, a market survey found. ' +
  'Grid storage installations reached 40 gigawatts in 2026 across Europe, the association said.'

/** A model that only embeds, with `embed`; asked anything else, it fails. */
function embeddingModel(embed: NonNullable<LanguageModel['embed']>): LanguageModel {
  return {
    name: 'fake',
    kind: 'model',
    embeddingModel: 'fake-embedding',
    plan: () => Promise.reject(new Error('not asked')),
    synthesize: () => Promise.reject(new Error('not asked')),
    embed,
  }
}

test("the claims' embeddings are asked for before the check, and every shown claim has its own words' vector", async () => {
  const asked: string[][] = []
  const model = embeddingModel(async (texts) => {
    asked.push(texts)
    return { vectors: texts.map(vectorOf), usage: { inputTokens: texts.length, outputTokens: 0 } }
  })
  const findings = [
    // Shown in its own words (the citation marker out).
    {
      text: 'Pack prices fell to 60 dollars per kWh [1]',
      quote: 'Sodium-ion pack prices fell to 60 dollars per kWh in the third quarter',
      sourceIds: [1],
    },
    // Misstates its quote's figure: shown in the page's words, which nobody asked about before the check.
    {
      text: 'Grid storage reached 45 gigawatts in 2026',
      quote: 'Grid storage installations reached 40 gigawatts in 2026 across Europe',
      sourceIds: [1],
    },
    // Its quote is on no page: not shown.
    { text: 'Lithium prices rose 20 percent', quote: 'Lithium prices rose 20 percent last year', sourceIds: [1] },
  ]
  const result = await classifyRunClaims(
    { model },
    {
      topic: 'grid storage',
      memory: undefined,
      synthesis: { headline: 'Prices fell', findings, gaps: [] },
      sources: [{ id: 1, url: 'https://news.example/storage', title: 'Storage', publishedDate: null, text: page }],
      onTopic: new Set([1]),
      signal: new AbortController().signal,
    },
  )
  expect(result.integrity).toMatchObject({ claims: 3, shown: 2, droppedUnsupported: 1, ownWords: 1 })
  // The first call went out before the check: it holds the words of the claim the check dropped.
  expect(asked[0]).toEqual([
    'Pack prices fell to 60 dollars per kWh',
    'Grid storage reached 45 gigawatts in 2026',
    'Lithium prices rose 20 percent',
  ])
  // The claim shown in its quote's words is embedded after the check, alone.
  expect(asked.slice(1)).toEqual([['Grid storage installations reached 40 gigawatts in 2026 across Europe']])
  expect(result.facts.map((fact) => fact.text)).toEqual([
    'Pack prices fell to 60 dollars per kWh',
    'Grid storage installations reached 40 gigawatts in 2026 across Europe',
  ])
  for (const fact of result.facts) expect(fact.vector).toBe(packVector(foldVector(vectorOf(fact.text))))
  expect(result.usage.inputTokens).toBe(4)
  expect(result.embeddingsFailed).toBeUndefined()
})

test('a run cancelled while its embeddings are asked for fails with the cancel, and nothing goes unhandled', async () => {
  const cancel = new AbortController()
  const model = embeddingModel(async () => {
    // The call is aborted as the run is cancelled, before the check is done.
    cancel.abort(new Error('the run was cancelled'))
    throw new Error('This operation was aborted')
  })
  const findings = [
    {
      text: 'Pack prices fell to 60 dollars per kWh',
      quote: 'Sodium-ion pack prices fell to 60 dollars per kWh in the third quarter',
      sourceIds: [1],
    },
  ]
  const classified = classifyRunClaims(
    { model },
    {
      topic: 'grid storage',
      memory: undefined,
      synthesis: { headline: 'Prices fell', findings, gaps: [] },
      sources: [{ id: 1, url: 'https://news.example/storage', title: 'Storage', publishedDate: null, text: page }],
      onTopic: new Set([1]),
      signal: cancel.signal,
    },
  )
  await expect(classified).rejects.toThrow('the run was cancelled')
})

/** A topic's memory holding `texts`, each read as the claim check reads a page's sentence. */
function memoryOf(texts: string[]): TopicMemory {
  const facts: Fact[] = texts.map((text, index) => {
    const [claim] = verifyClaims([{ text, quote: text, sourceIds: [1] }], [{ id: 1, text }]).claims
    if (!claim) throw new Error(`not a claim: ${text}`)
    const seen = '2026-10-01T00:00:00.000Z'
    return {
      id: `f${index}`,
      text,
      quote: text,
      sourceUrls: ['https://news.example/earlier'],
      statements: claim.statements,
      subject: claim.subject,
      polarity: claim.polarity,
      firstSeen: { runId: 'r0', at: seen },
      lastConfirmed: seen,
    }
  })
  return {
    topic: 'the island ferry',
    facts,
    sources: [],
    ledger: [],
    runs: [],
    topicId: 't1',
    runCount: 1,
    urlsIndexed: 1,
    factsStored: facts.length,
    lastRunAt: new Date('2026-10-01'),
    expiresAt: new Date('2026-10-31'),
  }
}

test("a judge's match the rules dispute is read a second time, pair alone, and both calls are paid for", async () => {
  const ferryPage = 'There will be no new boat this year, the operator said. Fares stay at £14.50 for a return.'
  const asked: string[] = []
  const model: LanguageModel = {
    name: 'fake',
    kind: 'model',
    plan: () => Promise.reject(new Error('not asked')),
    synthesize: () => Promise.reject(new Error('not asked')),
    async judgeClaims({ items }) {
      asked.push('judge')
      // The first memory claim, which shares no word, number or date with the claim.
      return {
        verdicts: items.map((_, index) => ({ index, class: 'confirmed' as const, candidate: 0 })),
        usage: { inputTokens: 500, outputTokens: 20 },
      }
    },
    async judgePairs({ pairs }) {
      asked.push(`pairs: ${pairs.map((pair) => `${pair.claim.text} / ${pair.known.text}`).join('; ')}`)
      return {
        verdicts: pairs.map((_, index) => ({ index, class: 'confirmed' as const })),
        usage: { inputTokens: 80, outputTokens: 10 },
      }
    },
  }
  const claim = 'There will be no new boat this year, the operator said.'
  const result = await classifyRunClaims(
    { model },
    {
      topic: 'the island ferry',
      memory: memoryOf([
        'The replacement ferry is due to enter service in September 2026.',
        'The council is spending 4.1 million pounds on a new vehicle ramp.',
      ]),
      synthesis: { headline: 'No boat', findings: [{ text: claim, quote: claim, sourceIds: [1] }], gaps: [] },
      sources: [{ id: 1, url: 'https://news.example/ferry', title: 'Ferry', publishedDate: null, text: ferryPage }],
      onTopic: new Set([1]),
      signal: new AbortController().signal,
    },
  )
  expect(asked).toEqual(['judge', `pairs: ${claim} / The replacement ferry is due to enter service in September 2026.`])
  expect(result.claims.map((shown) => shown.class)).toEqual(['confirmed'])
  expect(result.facts[0]?.change).toEqual({ class: 'confirmed', factId: 'f0' })
  expect(result.usage).toEqual({ inputTokens: 580, outputTokens: 30 })
})

test('sentences memory keeps beside the report: a changed figure among them is shown, the rest are kept unshown, a reversal read by the rules alone neither', async () => {
  const fee = 'The council raised the parking fee at Skerrin harbour to £4.20 a day from June.'
  const halted = 'Northvolt will not open its Vasteras sodium-ion plant in 2027, the company said.'
  const again = 'Independent tests showed Natron cells keeping 80 percent capacity after 5000 cycles.'
  const fresh = 'BYD opened a recycling line in Hefei that recovers sodium from spent cells.'
  const shown = 'The ferry company carried 212,000 passengers last year, up 4 percent.'
  const pageText = [shown, fee, halted, again, fresh].join(' ')
  const model: LanguageModel = {
    name: 'extractive (no language model)',
    kind: 'extractive',
    plan: () => Promise.reject(new Error('not asked')),
    synthesize: () => Promise.reject(new Error('not asked')),
  }
  const say = (text: string) => ({ text, quote: text, sourceIds: [1] })
  const result = await classifyRunClaims(
    { model },
    {
      topic: 'the island ferry',
      memory: memoryOf([
        'The council set the parking fee at Skerrin harbour at £3.50 a day in March.',
        'Northvolt will open its Vasteras sodium-ion plant in 2027, the company said.',
        again,
      ]),
      synthesis: {
        headline: 'Passengers',
        findings: [say(shown)],
        remembered: [say(fee), say(halted), say(again), say(fresh)],
        gaps: [],
      },
      sources: [{ id: 1, url: 'https://news.example/ferry', title: 'Ferry', publishedDate: null, text: pageText }],
      onTopic: new Set([1]),
      signal: new AbortController().signal,
    },
  )
  expect(result.claims.map((claim) => [claim.text, claim.class])).toEqual([
    [shown, 'new'],
    [fee, 'updated'],
  ])
  expect(result.claims[1]?.previous?.text).toBe(
    'The council set the parking fee at Skerrin harbour at £3.50 a day in March.',
  )
  expect(result.facts.map((fact) => [fact.text, fact.change])).toEqual([
    [shown, { class: 'new' }],
    [fee, { class: 'updated', factId: 'f0' }],
    [again, { class: 'confirmed', factId: 'f2' }],
    [fresh, { class: 'new' }],
  ])
  expect(result.integrity).toMatchObject({ claims: 2, shown: 2 })
})

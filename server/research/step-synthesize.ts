import { SYNTHESIS_MAX_OUTPUT_TOKENS } from '#server/providers/llm/output-limits.ts'
import { type LanguageModel, ProviderError, usageOf } from '#server/providers/types.ts'
import { budgetPassed, charactersPerToken, readableCharacters, spentOf, tokensLeft } from '#server/research/budget.ts'
import { classifyRunClaims } from '#server/research/delta.ts'
import { memoryDigest } from '#server/research/digest.ts'
import { restatingPages } from '#server/research/novelty.ts'
import { readPassages } from '#server/research/passages.ts'
import { buildReport, runHeadline } from '#server/research/report.ts'
import {
  briefText,
  budgetOf,
  budgetWarning,
  DEPTH,
  EXTRACTIVE,
  type StepContext,
  type StepOutputs,
  today,
} from '#server/research/run-context.ts'
import { type CorpusUse, searchLabel } from '#server/research/search-origin.ts'
import { sourcesOnTopic } from '#server/research/topicality.ts'
import { focusAreas } from '#server/vocabulary/brief.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'

/** Restated claims taken from pages that only repeat memory. */
const MAX_RESTATED = 50
/** A synthesis prompt besides the pages: instructions, the brief, memory's digest. */
const SYNTHESIS_FIXED_TOKENS = 2500
/** Less than this of pages is not worth a model's report: the extractive one is written instead. */
const MIN_AFFORDABLE_CHARACTERS = 1200
/** What the claim judge needs of the budget to be asked at all. */
const JUDGE_TOKENS = 1500

export async function synthesizeStep({
  deps,
  accountId,
  brief,
  input: { load_memory: memory, plan, search: found },
  signal,
  written,
  texts,
  event,
}: StepContext<'synthesize'>): Promise<StepOutputs['synthesize']> {
  const framework = brief.frameworkId ? findFramework(brief.frameworkId) : undefined
  const depth = DEPTH[brief.depth]
  const budget = budgetOf(brief, deps)
  const leftOut = [...(plan.leftOut ?? []), ...(found.leftOut ?? [])]
  const leftOutBefore = leftOut.length
  const leftBefore = tokensLeft(budget, spentOf([plan.usage, found.usage], found.costDollars))
  // What the budget lets the model read, after its answer and its fixed prompt are set aside.
  // Measured on the pages themselves only when the budget limits the reading at all.
  const perToken = Number.isFinite(leftBefore)
    ? charactersPerToken(found.sources.map((source) => source.text))
    : undefined
  const affordable = readableCharacters(
    leftBefore,
    SYNTHESIS_MAX_OUTPUT_TOKENS[brief.depth],
    SYNTHESIS_FIXED_TOKENS,
    perToken,
  )
  const full = readPassages(found.sources, briefText(brief), depth.passageCharacters, depth.contextCeiling, texts)
  const modelCanWrite = found.sources.length === 0 || affordable >= MIN_AFFORDABLE_CHARACTERS
  const reading =
    modelCanWrite && affordable < full.charactersRead
      ? readPassages(found.sources, briefText(brief), depth.passageCharacters, affordable, texts)
      : full
  if (reading !== full) leftOut.push('part of the pages found')
  const sources = reading.pages.map((page, position) => {
    const source = found.sources[page.index] as (typeof found.sources)[number]
    return {
      id: position + 1,
      url: source.url,
      title: source.title,
      publishedDate: source.publishedDate,
      text: page.text,
      ...(source.matchedByMeaning ? { matchedByMeaning: true } : {}),
    }
  })
  // The claim check shows only claims from these pages; whether a model writes is judged by them too.
  const onTopic = sourcesOnTopic(brief.topic, sources)
  // Read again here rather than carried from load_memory: the checkpoint stays small (up to 2,000
  // claims would be sealed into it at every step), and a run saved meanwhile is seen.
  const stored = memory.baseline ? undefined : await deps.memory.load(accountId, brief.topic)
  const digest = memoryDigest(stored, [briefText(brief), ...sources.map((source) => source.text)].join('\n'))
  // Pages that only say again what memory holds are confirmed by the rules; the model writes about
  // the rest (issue 40, item 9).
  const restating = stored ? restatingPages(sources, stored.facts) : { pages: new Set<number>(), findings: [] }
  const toWrite = sources.filter((source) => !restating.pages.has(source.id))
  const input = {
    topic: brief.topic,
    objective: brief.objective,
    focus: focusAreas(brief),
    reportStyle: brief.reportStyle,
    framework,
    depth: brief.depth,
    sources: toWrite,
    knownFacts: digest.facts,
    recentRuns: digest.recentRuns,
    today: today(),
    lastRunAt: memory.since?.slice(0, 10),
  }
  // Choosing the passages above overlapped the boundary's write; the model is paid only after it.
  await written
  let writer: LanguageModel = deps.model
  let synthesis: Awaited<ReturnType<LanguageModel['synthesize']>>
  if (toWrite.length === 0) {
    // Nothing read, or every page only says again what memory holds: no model paid.
    if (sources.length > 0) writer = EXTRACTIVE
    synthesis = {
      synthesis: { headline: 'Nothing new was found', findings: [], gaps: [] },
      usage: { inputTokens: 0, outputTokens: 0 },
    }
  } else if (!toWrite.some((source) => onTopic.has(source.id))) {
    // No page is about the topic: the check would drop every claim a model wrote, so none is paid for.
    writer = EXTRACTIVE
    synthesis = await EXTRACTIVE.synthesize(input, { signal })
    if (deps.model.kind === 'model') {
      await event('warning', 'synthesize', {
        code: 'nothing_on_topic',
        message: `No page read is about "${brief.topic}", so no model was paid to write about them.`,
      })
    }
  } else if (!modelCanWrite) {
    // Too little budget left for the model to write: the pages are written up without it.
    writer = EXTRACTIVE
    synthesis = await EXTRACTIVE.synthesize(input, { signal })
    leftOut.push("the model's report")
  } else {
    try {
      synthesis = await deps.model.synthesize(input, { signal })
    } catch (error) {
      signal.throwIfAborted()
      if (deps.model.kind !== 'model' || !(error instanceof ProviderError)) throw error
      // The searches are paid for: the pages are written up without a model rather than lost.
      writer = EXTRACTIVE
      synthesis = { ...(await EXTRACTIVE.synthesize(input, { signal })), usage: usageOf(error) }
      await event('warning', 'synthesize', {
        code: 'extractive_fallback',
        message: `The model could not write the report (${error.message}), so it was written without a model: sentences quoted from the pages read.`,
      })
    }
  }
  // A model that could not write the report is not asked to judge it either, nor one the budget
  // cannot pay for again: the rules decide.
  if (restating.findings.length > 0) {
    // What the restating pages say again is checked and classified like any claim: confirmed.
    const findings = [...synthesis.synthesis.findings, ...restating.findings.slice(0, MAX_RESTATED)]
    synthesis = { ...synthesis, synthesis: { ...synthesis.synthesis, findings } }
  }
  const judgeAffordable =
    tokensLeft(budget, spentOf([plan.usage, found.usage, synthesis.usage], found.costDollars)) >= JUDGE_TOKENS
  if (writer !== EXTRACTIVE && !judgeAffordable && !memory.baseline) leftOut.push('the claim judge')
  if (leftOut.length > leftOutBefore) {
    await budgetWarning(event, 'synthesize', brief, deps, leftOut.slice(leftOutBefore))
  }
  const judge = writer === EXTRACTIVE || !judgeAffordable ? EXTRACTIVE : deps.model
  // A model without a judge of its own (one that only writes) leaves the comparison to the rules too.
  const judgedBy = judge.judgeClaims ? 'model' : 'rules'
  const checked = await classifyRunClaims(
    { model: judge },
    {
      topic: brief.topic,
      memory: stored,
      synthesis: synthesis.synthesis,
      sources,
      onTopic,
      signal,
    },
  )
  if (checked.embeddingsFailed) {
    await event('warning', 'synthesize', {
      code: 'embeddings_unavailable',
      message: `Claims were matched with memory by their words only: embeddings failed (${checked.embeddingsFailed}).`,
    })
  }
  const notShown = async (code: string, dropped: number, why: string) => {
    if (dropped === 0) return
    const claims = dropped === 1 ? 'claim was' : 'claims were'
    await event('warning', 'synthesize', { code, message: `${dropped} ${claims} not shown: ${why}`, dropped })
  }
  const { droppedUnsupported, offTopic } = checked.integrity
  await notShown(
    'claims_unsupported',
    droppedUnsupported,
    'the quote was on no page it cited, or the claim stated a figure its quote does not.',
  )
  await notShown(
    'claims_off_topic',
    offTopic,
    `every page ${offTopic === 1 ? 'it cites' : 'they cite'} is about something else (it holds under half of the topic's words).`,
  )
  const usages = [plan.usage, found.usage, synthesis.usage, checked.usage]
  // What the report's sources are, when the run searched the local corpus: the documents its claims
  // cite, not every one its searches returned (a user's own document is no invented article because
  // the search also found sample articles it did not use).
  const corpusOf = (id: number) => found.sources[reading.pages[id - 1]?.index ?? -1]?.corpus
  const cited = new Set(checked.claims.flatMap((claim) => claim.sourceIds.map(corpusOf)))
  const corpusUse: CorpusUse | undefined = found.corpusUse && {
    ...found.corpusUse,
    corpus: cited.has('sample') ? 'sample' : cited.has('local') ? 'local' : found.corpusUse.corpus,
  }
  const built = buildReport({
    topic: brief.topic,
    synthesis: synthesis.synthesis,
    claims: checked.claims,
    integrity: checked.integrity,
    sources,
    baseline: memory.baseline,
    since: memory.since,
    reportStyle: brief.reportStyle,
    framework,
    generatedWith: {
      synthesis: writer.name,
      synthesisKind: writer.kind,
      search: searchLabel(deps.search.name, corpusUse),
      plan: plan.fallback ? 'fallback' : 'model',
      judge: judgedBy,
      ...(corpusUse
        ? {
            corpus: corpusUse.corpus,
            ...(corpusUse.offlineFallback ? { offlineFallback: true } : {}),
          }
        : {}),
    },
    usage: {
      inputTokens: usages.reduce((sum, usage) => sum + usage.inputTokens, 0),
      outputTokens: usages.reduce((sum, usage) => sum + usage.outputTokens, 0),
      searchCalls: found.searchCalls,
      costDollars: found.costDollars > 0 ? Math.round(found.costDollars * 1e6) / 1e6 : null,
      charactersRead: reading.charactersRead,
      charactersAvailable: reading.charactersAvailable,
    },
    ...(budget.maxTokens !== undefined || budget.maxCostDollars !== undefined
      ? {
          budget: {
            maxTokens: budget.maxTokens ?? null,
            maxCostDollars: budget.maxCostDollars ?? null,
            // Whenever it was passed too: an answer may run longer than its share, a script denser.
            reached: leftOut.length > 0 || budgetPassed(budget, spentOf(usages, found.costDollars)),
            leftOut,
          },
        }
      : {}),
  })
  // Each source of the corpus says so (which ones are invented, when a run found web pages too).
  const corpusKinds = new Map(found.sources.flatMap((source) => (source.corpus ? [[source.url, source.corpus]] : [])))
  const report = {
    ...built,
    sources: built.sources.map((source) => {
      const corpus = corpusKinds.get(source.url)
      return corpus ? { ...source, corpus } : source
    }),
  }
  return {
    report,
    headline: runHeadline(synthesis.synthesis.headline, checked.claims.length, checked.integrity),
    facts: checked.facts,
    vectors: checked.vectors,
    openQuestions: synthesis.synthesis.gaps,
  }
}

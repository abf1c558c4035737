import { ProviderError, type SearchResult, type Usage, usageOf } from '#server/providers/types.ts'
import { searchAllowed, spentOf, tokensLeft } from '#server/research/budget.ts'
import { mapWithConcurrency } from '#server/research/concurrency.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import { PASSAGE_GAP, type PageTexts, prepareInIdle, readPassages } from '#server/research/passages.ts'
import { newReadState, type PagesRead, readSnippetPages, unreadWarning } from '#server/research/read-pages.ts'
import {
  briefText,
  budgetOf,
  budgetWarning,
  DEPTH,
  PLAN_TOKENS,
  planInput,
  RunFailure,
  SEARCH_CONCURRENCY,
  type StepContext,
  type StepOutputs,
} from '#server/research/run-context.ts'
import { canonicalUrl } from '#server/text/canonical-url.ts'
import { type Brief, startPublishedDate } from '#server/vocabulary/brief.ts'

/** A re-run's first round that finds less than this share of pages new skips the follow-up round. */
const LITTLE_NEW_SHARE = 0.2
/** The follow-up plan reads this many of round one's pages, this much of each. */
const FOLLOW_UP_PAGES = 24
const FOLLOW_UP_PASSAGE_CHARACTERS = 300
const FOLLOW_UP_TOKENS = PLAN_TOKENS + 1000
/** A re-run searches from the last run's date less this many days. */
const RE_RUN_OVERLAP_DAYS = 2

export async function searchStep({
  deps,
  brief,
  input: { load_memory: memory, plan },
  signal,
  written,
  texts,
  event,
  flush,
}: StepContext<'search'>): Promise<StepOutputs['search']> {
  // Every search is paid for: none before the boundary says the run goes on.
  await written
  const depth = DEPTH[brief.depth]
  const ledger = new Set(memory.ledger)
  const found = new Map<string, SearchResult & { query: string }>()
  // Every URL a query_done has counted, so each is counted new once.
  const counted = new Set<string>()
  let searchCalls = 0
  let costDollars = 0
  let failures = 0
  let removedByLedger = 0
  let lastFailure: unknown

  const searched: string[] = []
  const budget = budgetOf(brief, deps)
  const planUsage = plan.usage
  const leftOut: string[] = []
  // A source that failed, or the offline fallback, is said once per run, not once per query.
  const noticed = new Set<string>()
  // What the local corpus answered, ledger or not: a re-run that finds only what it read still searched it.
  const corpus = { searched: deps.search.corpus === true, sample: false, offlineFallback: false }
  // A round's events are written in order behind its searches, not waited for one by one: a search
  // that answers hands its slot on at once, and the step ends when its searches do, its events
  // then going in the boundary's statement (the run's writes are ordered, and a failed write fails
  // the boundary after it). Only a paid call waits for them: the follow-up plan, and the synthesis
  // through the boundary. A cancel is seen at the first write after it, which a round's events
  // may put off by the run writer's linger (PROGRESS_LINGER_MS, pipeline.ts); a search sent
  // meanwhile in a freed slot is aborted then.
  const progress: Promise<unknown>[] = []
  const note = (type: 'query_done' | 'warning', data: Record<string, unknown>) => {
    // Lingering: the round's other answers, or the boundary after it, take it along.
    const write = event(type, 'search', data, { linger: true })
    write.catch(() => undefined) // seen by whatever waits for it: the follow-up plan or the boundary
    progress.push(write)
  }
  // The pages the follow-up plan reads: round one's first, those of its first queries (found keeps
  // the plan's order), made ready for it at its size while the round's other searches are awaited.
  // Whether there will be a follow-up is known only at the round's end: a re-run that finds little
  // new skips it, and then these 24 pages were prepared at that size for nothing.
  const followUpReads = depth.followUpQueries > 0 ? Math.ceil(FOLLOW_UP_PAGES / depth.resultsPerQuery) : 0
  async function runQueries(queries: string[], round: 1 | 2) {
    // Each query's results go into `found` in the plan's order once the round is done: the order
    // the searches happen to answer in must not change which pages a run reads, or for which query.
    const answers: Array<Array<SearchResult & { query: string }>> = []
    await mapWithConcurrency(queries, SEARCH_CONCURRENCY, async (query, index) => {
      // A search the dollar budget cannot pay for is not made; the run goes on with what it found.
      if (!searchAllowed(budget, spentOf([planUsage, usage], costDollars))) {
        if (!leftOut.includes('some searches')) leftOut.push('some searches')
        return
      }
      searched.push(query)
      searchCalls += 1
      try {
        const response = await deps.search.search(
          {
            text: query,
            startPublishedDate: searchFrom(brief, memory.since, new Date()),
            numResults: depth.resultsPerQuery,
            maxCharacters: depth.maxCharacters,
          },
          { signal },
        )
        costDollars += response.costDollars ?? 0
        for (const notice of response.notices ?? []) {
          if (notice.code === 'offline_fallback') corpus.offlineFallback = corpus.searched = true
          if (noticed.has(notice.message)) continue
          noticed.add(notice.message)
          note('warning', { code: notice.code, message: notice.message })
        }
        let fresh = 0
        const added: string[] = []
        const kept: Array<SearchResult & { query: string }> = []
        for (const result of response.results) {
          if (result.corpus) corpus.searched = true
          if (result.corpus === 'sample') corpus.sample = true
          const url = canonicalUrl(result.url)
          if (!url) continue
          // Spec 2.4 rule 2: what memory has read is not read again.
          if (ledger.has(url)) {
            removedByLedger += 1
            continue
          }
          if (!counted.has(url)) fresh += 1
          counted.add(url)
          kept.push({ ...result, url, query })
          if (result.text) added.push(result.text)
        }
        answers[index] = kept
        // While other searches and calls are awaited, these pages are made ready for the synthesis
        // (and for the follow-up plan, if it will read them).
        const caps: number[] = [depth.passageCharacters]
        if (round === 1 && index < followUpReads) caps.push(FOLLOW_UP_PASSAGE_CHARACTERS)
        prepareInIdle(texts, added, caps)
        note('query_done', { query, results: response.results.length, new: fresh })
      } catch (error) {
        signal.throwIfAborted()
        failures += 1
        lastFailure = error
        note('warning', { code: 'query_failed', query, message: (error as Error).message })
      }
    })
    for (const kept of answers) for (const result of kept ?? []) found.set(result.url, result)
  }

  // Snippet-only results get their pages read after each round, so the follow-up is planned from
  // what the pages say and the synthesis quotes articles, not search snippets.
  const readState = newReadState()
  const unread: PagesRead['unread'] = []
  async function readPages() {
    if (!deps.reader) return
    const round = await readSnippetPages(found, deps.reader, {
      brief: briefText(brief),
      maxCharacters: depth.maxCharacters,
      limit: depth.pagesRead,
      state: readState,
      signal,
    })
    if (round.read + round.unread.length === 0) return
    unread.push(...round.unread)
    await event('pages_read', 'search', { read: round.read, unread: round.unread.length })
  }

  const queries = plan.queries
  let usage: Usage = { inputTokens: 0, outputTokens: 0 }
  await runQueries(queries, 1)
  await readPages()
  const roundOne = { new: found.size, known: removedByLedger }
  if (failures === searchCalls && searchCalls > 0) {
    throw lastFailure instanceof ProviderError
      ? lastFailure
      : new RunFailure('search_unavailable', `Every search failed: ${(lastFailure as Error)?.message}`)
  }
  // A deep run gets one follow-up round on what the first round left open, unless the first round
  // found mostly what memory has read: then the topic has not moved, and more searching costs more
  // than it finds.
  const littleNew = roundOne.new < LITTLE_NEW_SHARE * (roundOne.new + roundOne.known)
  const affordable = tokensLeft(budget, spentOf([planUsage], costDollars)) >= FOLLOW_UP_TOKENS
  if (depth.followUpQueries > 0 && !littleNew && !affordable) leftOut.push('the follow-up round')
  if (depth.followUpQueries > 0 && !littleNew && affordable) {
    // Round one was planned with memory's digest; the follow-up needs only what round one found.
    const input = { ...planInput(brief, memory, depth.followUpQueries), knownFacts: [], pastQueries: [] }
    input.followUp = { queries, found: roundOneSays([...found.values()], brief, texts) }
    let followUp: string[]
    flush()
    await Promise.all(progress)
    try {
      const answer = await deps.model.plan(input, { signal })
      followUp = answer.plan.queries
      usage = answer.usage
    } catch (error) {
      signal.throwIfAborted()
      usage = usageOf(error) // an unusable answer was still paid for
      followUp = fallbackPlan(input).queries
    }
    const asked = new Set(queries.map((query) => query.toLowerCase()))
    await runQueries(followUp.filter((query) => !asked.has(query.toLowerCase())).slice(0, depth.followUpQueries), 2)
    await readPages()
  }
  const unreadMessage = unreadWarning(unread)
  if (unreadMessage) await event('warning', 'search', { code: 'pages_unread', message: unreadMessage })
  if (leftOut.length > 0) await budgetWarning(event, 'search', brief, deps, leftOut)
  return {
    sources: [...found.values()],
    queries: searched,
    searchCalls,
    costDollars,
    removedByLedger,
    usage,
    ...(leftOut.length > 0 ? { leftOut } : {}),
    ...(corpus.searched
      ? { corpusUse: { corpus: corpus.sample ? 'sample' : 'local', offlineFallback: corpus.offlineFallback } }
      : {}),
  }
}

/**
 * What round one's pages say, for planning the follow-up: each page's title and the passage that
 * matters most to the brief, a line each (not titles alone, which say little of what a page answers).
 */
function roundOneSays(pages: Array<SearchResult & { query: string }>, brief: Brief, texts: PageTexts): string[] {
  const shown = pages.slice(0, FOLLOW_UP_PAGES)
  const reading = readPassages(shown, briefText(brief), FOLLOW_UP_PASSAGE_CHARACTERS, undefined, texts)
  return reading.pages.map((page) => {
    const title = (shown[page.index] as SearchResult).title
    const said = page.text.replaceAll(PASSAGE_GAP, ' … ').replace(/\s+/g, ' ').trim()
    return `${title}: ${said}`
  })
}

/**
 * The earliest publication date searched: the brief's timeframe, or on a re-run the last run's date
 * less two days when that is narrower (what was published since is what can be new; the two days
 * cover pages indexed late).
 */
function searchFrom(brief: Brief, since: string | null, now: Date): string | undefined {
  const fromTimeframe = startPublishedDate(brief.timeframe, now)
  if (!since) return fromTimeframe
  const fromLastRun = new Date(Date.parse(since) - RE_RUN_OVERLAP_DAYS * 86_400_000).toISOString().slice(0, 10)
  return !fromTimeframe || fromLastRun > fromTimeframe ? fromLastRun : fromTimeframe
}

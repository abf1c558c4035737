// What of memory a prompt carries: never the whole list. A year of weekly runs holds up to 2,000
// claims; a prompt gets the last runs' one-line summaries and the claims most related to what this
// run is about (BM25 against the brief for the plan, against the passages read for the synthesis),
// up to a fixed budget. So a prompt is as long with 2,000 claims in memory as with 200.
import { queryTerms } from '#server/claims/terms.ts'
import { bm25 } from '#server/text/bm25.ts'
import { wordTokens } from '#server/text/words.ts'
import type { MemoryContent } from '#server/topics/contract.ts'

/** About 1,500 tokens of memory in a prompt, at about 4 characters a token. */
export const DIGEST_CHARACTERS = 6000
/** Summaries of this many recent runs open the digest: the rolling story of the topic. */
const RECENT_RUNS = 3

export type MemoryDigest = {
  /** "2026-11-16: <that run's headline>", newest first. */
  recentRuns: string[]
  /** Claims memory holds now, the most related first. */
  facts: string[]
}

/** The digest of `memory` for a prompt about `about`, within `budget` characters. */
export function memoryDigest(
  memory: Pick<MemoryContent, 'facts' | 'runs'> | undefined,
  about: string,
  budget = DIGEST_CHARACTERS,
): MemoryDigest {
  if (!memory) return { recentRuns: [], facts: [] }
  let used = 0
  const fits = (line: string) => {
    if (used + line.length + 3 > budget) return false
    used += line.length + 3 // and "- " and a newline in the prompt
    return true
  }
  const recentRuns = memory.runs
    .filter((run) => run.summary)
    .slice(0, RECENT_RUNS)
    .map((run) => `${run.at.slice(0, 10)}: ${run.summary}`)
    .filter(fits)
  const current = memory.facts.filter((fact) => !fact.supersededBy)
  const score = bm25(current.map((fact) => wordTokens(fact.text)))
  const query = queryTerms(about)
  const ranked = current
    .map((fact, index) => ({ fact, score: score(index, query) }))
    .sort((a, b) => b.score - a.score || (a.fact.lastConfirmed < b.fact.lastConfirmed ? 1 : -1))
  const facts: string[] = []
  for (const { fact } of ranked) {
    if (used + 4 > budget) break
    if (fits(fact.text)) facts.push(fact.text)
  }
  return { recentRuns, facts }
}

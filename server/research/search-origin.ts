// What a run searched, in words a person reads: the web, or the local corpus (the invented sample
// that ships with Sextant, or documents indexed on this server), and whether the corpus stood in
// for an unreachable web. The report's generatedWith records it; every surface shows the notice.
// No Node imports: pages use this in the browser too.
import type { CorpusKind } from '#server/providers/types.ts'
import { corpusPagePath } from '#server/text/corpus-url.ts'
import type { Report } from '#server/vocabulary/report.ts'

/** The run searched the local corpus: which kind of documents it found, and whether the web was unreachable. */
export type CorpusUse = { corpus: CorpusKind; offlineFallback: boolean }

const CORPUS_WORDS: Record<CorpusKind, string> = {
  sample: 'the sample corpus bundled with Sextant (invented articles, not the web)',
  local: 'the local corpus (documents indexed on this server, not the web)',
}

/** What the sample's invented articles are about (its folders, corpus/sample): a topic elsewhere finds nothing. */
export const SAMPLE_SUBJECTS = 'batteries, AI agents and heat pumps'

const WHAT_THEY_ARE: Record<CorpusKind, string> = {
  sample: `the sample corpus bundled with Sextant: its sources are invented articles on ${SAMPLE_SUBJECTS} (the companies, people and figures in them are made up), there for trying Sextant offline`,
  local: 'the local corpus: its sources are documents indexed on this server',
}

const SEARCH_THE_WEB =
  'To research the web, set SEARCH_PROVIDER=open (no key needed) or a search key such as EXA_API_KEY.'

/** generatedWith.search: the provider's name for the web; for the corpus, what it is, in words. */
export function searchLabel(providerName: string, use: CorpusUse | undefined): string {
  if (!use) return providerName
  const corpus = CORPUS_WORDS[use.corpus]
  return use.offlineFallback ? `${corpus}, because ${providerName} could not be reached` : corpus
}

/** Said first wherever a report is shown when the run searched the local corpus, not the web. */
export function corpusNotice(generatedWith: Report['generatedWith']): string | undefined {
  const { corpus, offlineFallback } = generatedWith
  if (!corpus) return undefined
  return offlineFallback
    ? `No web source could be reached (this machine looks offline), so this run searched ${WHAT_THEY_ARE[corpus]}, not pages of the web. Run it again once the machine is online.`
    : `This run searched ${WHAT_THEY_ARE[corpus]}, not pages of the web. ${SEARCH_THE_WEB}`
}

/**
 * A report stored before runs recorded what they searched: a corpus run is known by its search name
 * ("local corpus") or its sources' corpus names, and is read as the sample (what nearly every such
 * run searched: the sample was indexed whenever the corpus was empty).
 */
export function withLegacyCorpusUse(report: Report): Report {
  const { generatedWith } = report
  const isCorpusUrl = (url: string) => corpusPagePath(url) !== undefined
  if (
    generatedWith.corpus ||
    !(generatedWith.search === 'local corpus' || report.sources.some((s) => isCorpusUrl(s.url)))
  ) {
    return report
  }
  const offlineFallback = generatedWith.search !== 'local corpus'
  const use: CorpusUse = { corpus: 'sample', offlineFallback }
  return {
    ...report,
    sources: report.sources.map((source) => (isCorpusUrl(source.url) ? { ...source, corpus: 'sample' } : source)),
    generatedWith: {
      ...generatedWith,
      search: searchLabel(generatedWith.search, use),
      corpus: 'sample',
      ...(offlineFallback ? { offlineFallback } : {}),
    },
  }
}

// A stored report as every surface reads it: in today's shape, cleaned of what older versions let
// through, with the notice of a corpus run, and (away from the pages) corpus sources by their pages.
import { type Report, upgradeReport } from '#server/research/report-types.ts'
import { corpusNotice } from '#server/research/search-origin.ts'
import { readableUrl } from '#server/text/corpus-url.ts'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'
import type { StoredReport } from '#server/vocabulary/report.ts'

/**
 * `publicUrl`: for answers read away from the pages (the API, MCP, Slack and GitHub), whose corpus
 * sources then link to their pages on this server; the pages link them themselves (safeHref).
 */
export function readStoredReport(stored: StoredReport, options: { publicUrl?: string } = {}): Report {
  const report = viewReport(upgradeReport(stored))
  return options.publicUrl ? withReadableUrls(report, options.publicUrl) : report
}

/**
 * Reports are written without links (buildReport), but ones stored before that was so may hold a
 * page's links or bidirectional controls: every surface reads reports through here. A run that
 * searched the local corpus gets its notice here, so no surface can show the report without it.
 */
function viewReport(report: Report): Report {
  const notice = corpusNotice(report.generatedWith)
  const urls = report.sources.map((source) => source.url)
  const clean = <T extends { text: string }>(finding: T): T => ({ ...finding, text: sanitizeMarkdown(finding.text) })
  const change = <T extends { text: string; previous: { text: string } }>(finding: T): T => ({
    ...clean(finding),
    previous: { ...finding.previous, text: sanitizeMarkdown(finding.previous.text) },
  })
  return {
    ...report,
    ...(notice ? { notice } : {}),
    summary: sanitizeMarkdown(report.summary, urls),
    delta: {
      ...report.delta,
      summary: sanitizeMarkdown(report.delta.summary, urls),
      newFindings: report.delta.newFindings.map(clean),
      updated: report.delta.updated.map(change),
      contradicted: report.delta.contradicted.map(change),
    },
  }
}

/** Corpus documents by their pages on this server: their own names (https://corpus.local/...) open nothing. */
function withReadableUrls(report: Report, publicUrl: string): Report {
  const readable = (url: string) => readableUrl(url, publicUrl)
  const change = <T extends { previous: { urls: string[] } }>(finding: T): T => ({
    ...finding,
    previous: { ...finding.previous, urls: finding.previous.urls.map(readable) },
  })
  return {
    ...report,
    sources: report.sources.map((source) => ({ ...source, url: readable(source.url) })),
    delta: {
      ...report.delta,
      updated: report.delta.updated.map(change),
      contradicted: report.delta.contradicted.map(change),
    },
  }
}

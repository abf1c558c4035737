// What the benchmark reads back from Sextant after each run, through its public surfaces: the report
// (GET /api/briefs/{id}) and topic memory (the MCP tool get_topic_memory, through the SDK client),
// and how those become the scorer's input.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { lookup, type RegistryEntry } from '#bench/quality/registry.ts'
import type { RunInput, ShownClaim } from '#bench/quality/score.ts'
import { type Page, versionKey } from '#bench/quality/web.ts'
import type { Report } from '#server/research/report-types.ts'

export type MemoryFact = { text: string; sourceUrls: string[] }

export type MemoryReader = { facts: (topic: string) => Promise<MemoryFact[]>; close: () => Promise<void> }

export async function connectMemoryReader(url: string, apiKey: string): Promise<MemoryReader> {
  const client = new Client({ name: 'sextant-bench-quality', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', url), {
      requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    }),
  )
  return {
    async facts(topic) {
      const result = await client.callTool({ name: 'get_topic_memory', arguments: { topic } })
      if (result.isError) return [] // no memory of the topic yet
      return ((result.structuredContent as { facts?: MemoryFact[] } | undefined)?.facts ?? []).map((fact) => ({
        text: fact.text,
        sourceUrls: fact.sourceUrls,
      }))
    },
    close: () => client.close(),
  }
}

/** The claims a report shows (new, updated, contradicted), each with the URLs of the pages it cites. */
export function shownClaims(report: Report): ShownClaim[] {
  const urlOf = (n: number) => report.sources.find((source) => source.n === n)?.url
  const claim = (kind: ShownClaim['class']) => (finding: Report['delta']['newFindings'][number]) => ({
    class: kind,
    text: finding.text,
    quote: finding.quote,
    urls: finding.sources.map((n) => urlOf(n) ?? `(no source ${n})`),
    previous: 'previous' in finding ? (finding.previous as { text: string }).text : undefined,
  })
  return [
    ...report.delta.newFindings.map(claim('new')),
    ...report.delta.updated.map(claim('updated')),
    ...report.delta.contradicted.map(claim('contradicted')),
  ]
}

type Registry = Map<string, RegistryEntry>

/**
 * What memory held, by fact: each memory claim's text read through the registry, or its quote (kept
 * from the report that showed it) when its text is the model's own words.
 */
export function heldVersions(
  memory: MemoryFact[],
  registry: Registry,
  quoteOf: Map<string, string>,
): Pick<RunInput, 'held' | 'heldTexts'> {
  const held = new Map<string, Set<number>>()
  const heldTexts = new Map<string, string[]>()
  for (const fact of memory) {
    const entry = factEntry(fact.text, registry, quoteOf)
    if (!entry) continue
    held.set(entry.fact, (held.get(entry.fact) ?? new Set()).add(entry.version))
    heldTexts.set(entry.fact, [...(heldTexts.get(entry.fact) ?? []), fact.text])
  }
  return { held, heldTexts }
}

/**
 * Fact versions a run confirmed: a memory claim held before the run gained, as a source, a page of
 * this run that states its fact.
 */
export function confirmedInMemory(
  before: MemoryFact[],
  after: MemoryFact[],
  pages: Map<string, Page>,
  registry: Registry,
  quoteOf: Map<string, string>,
): Set<string> {
  const earlier = new Map(before.map((fact) => [fact.text, new Set(fact.sourceUrls)]))
  const confirmed = new Set<string>()
  for (const fact of after) {
    const known = earlier.get(fact.text)
    const entry = known && factEntry(fact.text, registry, quoteOf)
    if (!known || !entry) continue
    for (const url of fact.sourceUrls.filter((source) => !known.has(source))) {
      for (const statement of pages.get(url)?.statements ?? []) {
        if (statement.fact === entry.fact) confirmed.add(versionKey(statement.fact, statement.version))
      }
    }
  }
  return confirmed
}

function factEntry(text: string, registry: Registry, quoteOf: Map<string, string>) {
  const quote = quoteOf.get(text)
  const entry = lookup(registry, text) ?? (quote === undefined ? undefined : lookup(registry, quote))
  return entry?.kind === 'fact' ? entry : undefined
}

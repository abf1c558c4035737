// The realistic web of the quality benchmark (issue 40): hand-written news articles, not templates.
// Each topic is a folder of bench/quality/narrative/ holding topic.json (the topic, its split, and the
// facts its pages state) and one folder per epoch (1, 2, 3) of pages. A page is a header of
// `name: value` lines (url, title, optional `passing: yes` for a page that only mentions the topic),
// a line `---`, and the article as a site serves it: navigation, cookie banner, byline, paragraphs,
// "related" and "most read" lists. Every sentence that states one of the topic's facts is wrapped
// as `[[fact@N| the sentence. ]]`: version N of that fact. Nothing else in the text is a fact.
//
// Development topics may be read when writing rules; held-out topics must not be (bench/README.md
// says which is which), so their figures say how the engine does on text it was not tuned to.
import fs from 'node:fs'
import path from 'node:path'
import { buildRegistry } from '#bench/quality/registry.ts'
import type { Epoch, EpochPlan, Fact, Page, Statement, TopicWeb, Web } from '#bench/quality/web.ts'

export const NARRATIVE_DIR = path.join(import.meta.dirname, 'narrative')
export const NARRATIVE_EPOCHS = 3
export type Split = 'development' | 'held-out'
type FactDeclaration = { kind: 'figure' | 'date' | 'polarity' | 'event'; negative?: number[] }
type TopicFile = { topic: string; split: Split; facts: Record<string, FactDeclaration> }

export type NarrativeTopic = TopicWeb & { split: Split; slug: string }
export type NarrativeWeb = Omit<Web, 'topics'> & { topics: NarrativeTopic[] }

/** Pages served again from earlier epochs, which the engine's ledger must skip. */
const OLD_URLS_SERVED = 2
const TAG = /\[\[([a-z0-9-]+)@(\d+)\|\s*([\s\S]*?)\s*\]\]/g
const FACT_KINDS = ['figure', 'date', 'polarity', 'event']
const WORDS = { min: 200, max: 600 }
const PAGES_PER_EPOCH = { min: 4, max: 8 }

export class CorpusError extends Error {}

type ParsedPage = Page & { passing: boolean; words: number; file: string }

/** One page file: its header, its text with the tags taken out, and what its tagged sentences state. */
export function parsePage(source: string, file: string, domain: string): ParsedPage {
  const divider = source.indexOf('\n---\n')
  if (divider < 0) throw new CorpusError(`${file}: no line "---" after the header`)
  const header = new Map<string, string>()
  for (const line of source.slice(0, divider).split('\n')) {
    const match = /^([a-z-]+):\s*(.+)$/.exec(line.trim())
    if (!match) throw new CorpusError(`${file}: header line "${line}" is not "name: value"`)
    header.set(match[1] as string, (match[2] as string).trim())
  }
  const url = header.get('url')
  const title = header.get('title')
  if (!url || !/^https:\/\/[a-z0-9.-]+\.example\//.test(url))
    throw new CorpusError(`${file}: url must be https://<site>.example/...`)
  if (!title) throw new CorpusError(`${file}: no title`)
  const passing = header.get('passing') === 'yes'
  const body = source.slice(divider + 5).trim()
  const statements: Statement[] = []
  const text = body.replace(TAG, (_, key: string, version: string, sentence: string) => {
    if (sentence.includes('[[') || sentence.includes('|')) throw new CorpusError(`${file}: a tag inside "${sentence}"`)
    statements.push({ fact: `${domain}/${key}`, version: Number(version) - 1, text: sentence })
    return sentence
  })
  if (text.includes('[[') || text.includes(']]'))
    throw new CorpusError(`${file}: a tag that is not [[fact@N| sentence ]]`)
  const words = text.split(/\s+/).filter(Boolean).length
  return { url, title, text, statements, passing, words, file }
}

export function loadNarrativeTopic(dir: string): NarrativeTopic {
  const slug = path.basename(dir)
  const domain = `narrative-${slug}`
  const declared = JSON.parse(fs.readFileSync(path.join(dir, 'topic.json'), 'utf8')) as TopicFile
  if (!declared.topic || !['development', 'held-out'].includes(declared.split))
    throw new CorpusError(`${slug}/topic.json: needs "topic" and "split" ("development" or "held-out")`)
  const wordings = new Map<string, Map<number, string[]>>()
  for (const [key, fact] of Object.entries(declared.facts ?? {})) {
    if (!FACT_KINDS.includes(fact.kind)) throw new CorpusError(`${slug}: fact ${key} has kind "${fact.kind}"`)
    wordings.set(`${domain}/${key}`, new Map())
  }
  const epochs: Epoch[] = []
  const earlier: Page[] = []
  const latest = new Map<string, number>()
  for (let epoch = 1; epoch <= NARRATIVE_EPOCHS; epoch++) {
    const folder = path.join(dir, String(epoch))
    const files = fs.existsSync(folder)
      ? fs
          .readdirSync(folder)
          .filter((name) => name.endsWith('.txt'))
          .sort()
      : []
    const pages = files.map((name) =>
      parsePage(fs.readFileSync(path.join(folder, name), 'utf8'), `${slug}/${epoch}/${name}`, domain),
    )
    if (pages.length < PAGES_PER_EPOCH.min || pages.length > PAGES_PER_EPOCH.max)
      throw new CorpusError(
        `${slug}/${epoch}: ${pages.length} pages; an epoch has ${PAGES_PER_EPOCH.min}-${PAGES_PER_EPOCH.max}`,
      )
    for (const page of pages) {
      if (page.words < WORDS.min || page.words > WORDS.max)
        throw new CorpusError(`${page.file}: ${page.words} words; a page has ${WORDS.min}-${WORDS.max}`)
      if (page.passing && page.statements.length > 0)
        throw new CorpusError(`${page.file}: a passing-mention page states none of the topic's facts`)
      for (const statement of page.statements) {
        const versions = wordings.get(statement.fact)
        if (!versions) throw new CorpusError(`${page.file}: fact "${statement.fact}" is not in topic.json`)
        versions.set(statement.version, [...(versions.get(statement.version) ?? []), statement.text])
      }
    }
    const plan = planOf(pages, latest, declared, domain)
    const old = earlier.slice(0, epoch > 1 ? OLD_URLS_SERVED : 0)
    epochs.push({ pages, plan, served: [...pages, ...old].map((page) => page.url), strays: [] })
    earlier.push(...pages.filter((page) => !page.passing))
  }
  const facts: Fact[] = [...wordings].map(([key, versions]) => {
    const count = Math.max(0, ...versions.keys()) + 1
    const { kind, negative = [] } = declared.facts[key.slice(domain.length + 1)] as FactDeclaration
    return {
      key,
      kind: kind === 'event' ? 'figure' : kind,
      versions: Array.from({ length: count }, (_, index) => {
        const said = versions.get(index)
        if (!said) throw new CorpusError(`${slug}: ${key} has no page stating version ${index + 1}`)
        return { label: `v${index + 1}`, positive: !negative.includes(index + 1), wordings: [...new Set(said)] }
      }),
    }
  })
  return { domain, topic: declared.topic, split: declared.split, slug, facts, epochs }
}

/** What an epoch does to each fact, against the latest version stated before it (and then records it). */
function planOf(pages: Page[], latest: Map<string, number>, declared: TopicFile, domain: string): EpochPlan {
  const plan: EpochPlan = { new: [], updated: [], contradicted: [], restated: [] }
  const stated = new Map<string, number>()
  for (const statement of pages.flatMap((page) => page.statements)) {
    stated.set(statement.fact, Math.max(stated.get(statement.fact) ?? -1, statement.version))
  }
  for (const [fact, version] of stated) {
    const key = `${fact}@${version}`
    const before = latest.get(fact)
    const negative = declared.facts[fact.slice(domain.length + 1)]?.negative ?? []
    if (before === undefined) plan.new.push(key)
    else if (before === version) plan.restated.push(key)
    else if (negative.includes(before + 1) !== negative.includes(version + 1)) plan.contradicted.push(key)
    else plan.updated.push(key)
    latest.set(fact, version)
  }
  return plan
}

/** Every topic of the corpus, as one web the quality scenario serves and scores like the templated one. */
export function loadNarrativeWeb(dir = NARRATIVE_DIR): NarrativeWeb {
  const topics = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'topic.json')))
    .map((entry) => loadNarrativeTopic(path.join(dir, entry.name)))
    .sort((a, b) => a.slug.localeCompare(b.slug))
  const facts = new Map(topics.flatMap((topic) => topic.facts.map((fact) => [fact.key, fact] as const)))
  return { seed: 1, topics, facts, registry: buildRegistry(facts.values(), []) }
}

/** What a topic must hold to test the delta: every kind of change in each later epoch, and passing mentions. */
export function shapeProblems(topic: NarrativeTopic): string[] {
  const problems: string[] = []
  topic.epochs.forEach((epoch, index) => {
    const where = `${topic.slug}/${index + 1}`
    const { plan } = epoch
    if (!epoch.pages.some((page) => page.passing))
      problems.push(`${where}: no page that only mentions the topic in passing`)
    if (index === 0) {
      if (plan.new.length < 8) problems.push(`${where}: ${plan.new.length} facts; the first epoch states at least 8`)
      return
    }
    const least = { updated: 1, contradicted: 1, restated: 3, new: 2 }
    for (const [kind, count] of Object.entries(least) as Array<[keyof typeof least, number]>) {
      if (plan[kind].length < count) problems.push(`${where}: ${plan[kind].length} ${kind}; needs at least ${count}`)
    }
  })
  return problems
}

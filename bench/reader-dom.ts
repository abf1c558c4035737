// Which server-side DOM the page reader runs Readability on (issue 18: "linkedom or jsdom: measure
// and choose"). Each DOM runs in a process of its own over the same pages: time to parse and extract
// each page (median of 3 after a warm-up), the process's peak memory, and how close the text comes to
// Readability's expected article (word F1), plus the stub web's news page (article paragraphs kept,
// navigation, scripts, cookie banner and footer left out).
//
//   npx node bench/reader-dom.ts [--pages DIR]
//
// DIR holds one folder per page with source.html and expected.html, as Mozilla Readability's
// test/test-pages does. The reader ships one DOM (linkedom); to measure again, install the other
// for the occasion: `npm install --no-save jsdom@31`.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { extractArticle } from '#server/providers/reader/extract.ts'
import { parseHtmlDocument } from '#server/providers/reader/html.ts'
import { ARTICLE_PARAGRAPHS, NOISE_PHRASES, newsArticleHtml } from '#test/support/stub-web.ts'

const DOMS = ['linkedom', 'jsdom'] as const
type DomName = (typeof DOMS)[number]
/** `heap`: what the parsed document holds (V8 heap and external), for the largest pages only. */
type PageResult = { name: string; bytes: number; ms: number; heap: number | null; f1: number | null; found: boolean }
const HELD_SAMPLE = 5
/** `retained`: heap and external memory still in use after every page was read and let go. */
type ChildReport = {
  dom: DomName
  baselineRss: number
  peakRss: number
  retained: number
  pages: PageResult[]
  stubPage: StubCheck
}
type StubCheck = { paragraphsKept: number; paragraphs: number; noiseFound: string[] }

async function measure(dom: DomName, pagesDir: string | undefined): Promise<ChildReport> {
  const parse = await domParser(dom)
  const pages = pagesDir ? readPages(pagesDir) : []
  const baselineRss = process.resourceUsage().maxRSS * 1024
  const baselineHeld = heldMemory()
  // What a parsed document holds, on the largest pages, measured first (a collection per page is
  // slow once a DOM has kept a lot of memory, and what it kept would blur the figure).
  const largest = [...pages].sort((a, b) => b.source.length - a.source.length).slice(0, HELD_SAMPLE)
  const held = new Map<string, number>()
  for (const page of largest) {
    const before = heldMemory()
    const document = parse.open(page.source)
    held.set(page.name, heldMemory() - before)
    extractArticle(document)
    parse.close()
  }
  const results: PageResult[] = []
  for (const page of pages) {
    extractArticle(parse.open(page.source)) // warm-up
    parse.close()
    const times: number[] = []
    let text: string | null = null
    for (let round = 0; round < 3; round++) {
      const started = performance.now()
      text = extractArticle(parse.open(page.source))?.text ?? null
      times.push(performance.now() - started)
      parse.close()
    }
    const ms = times.sort((a, b) => a - b)[1] as number
    const f1 = page.expected === null ? null : text === null ? 0 : wordF1(words(text), words(stripTags(page.expected)))
    const bytes = Buffer.byteLength(page.source)
    results.push({ name: page.name, bytes, ms, heap: held.get(page.name) ?? null, f1, found: text !== null })
  }
  const stubText = extractArticle(parse.open(newsArticleHtml()))?.text ?? ''
  const stubPage = {
    paragraphs: ARTICLE_PARAGRAPHS.length,
    paragraphsKept: ARTICLE_PARAGRAPHS.filter((paragraph) => stubText.includes(paragraph)).length,
    noiseFound: NOISE_PHRASES.filter((phrase) => stubText.includes(phrase)),
  }
  parse.close()
  const retained = heldMemory() - baselineHeld
  return { dom, baselineRss, peakRss: process.resourceUsage().maxRSS * 1024, retained, pages: results, stubPage }
}

/** Heap and external memory in use after a full collection (run with --expose-gc). */
function heldMemory(): number {
  globalThis.gc?.()
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.external
}

/**
 * The DOM's "HTML to Document": for linkedom, what the reader ships (reader/html.ts); jsdom is
 * loaded by name, so the bench runs without it installed. `close` frees what the last document
 * holds (jsdom's window keeps timers and listeners until closed).
 */
async function domParser(dom: DomName): Promise<{ open: (html: string) => Document; close: () => void }> {
  if (dom === 'linkedom') return { open: parseHtmlDocument, close: () => {} }
  const name: string = dom
  const { JSDOM, VirtualConsole } = await import(name)
  let window: { close: () => void } | undefined
  return {
    open: (html) => {
      // Without a console of its own, jsdom prints every stylesheet it cannot parse.
      const parsed = new JSDOM(html, { url: 'https://example.com/article', virtualConsole: new VirtualConsole() })
      window = parsed.window
      return parsed.window.document
    },
    close: () => window?.close(),
  }
}

function readPages(dir: string): Array<{ name: string; source: string; expected: string | null }> {
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'source.html')))
    .sort()
    .map((name) => {
      const expected = path.join(dir, name, 'expected.html')
      return {
        name,
        source: fs.readFileSync(path.join(dir, name, 'source.html'), 'utf8'),
        expected: fs.existsSync(expected) ? fs.readFileSync(expected, 'utf8') : null,
      }
    })
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** Text of markup without any DOM, so neither contestant judges itself. */
function stripTags(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, code: string) => {
      if (code[0] !== '#') return ENTITIES[code.toLowerCase()] ?? entity
      const point = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1))
      return point > 0 && point < 0x110000 ? String.fromCodePoint(point) : ' '
    })
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** F1 of the two bags of words: 1 when the extracted text has exactly the expected words. */
function wordF1(got: string[], expected: string[]): number {
  if (got.length === 0 || expected.length === 0) return got.length === expected.length ? 1 : 0
  const counts = new Map<string, number>()
  for (const word of expected) counts.set(word, (counts.get(word) ?? 0) + 1)
  let overlap = 0
  for (const word of got) {
    const left = counts.get(word) ?? 0
    if (left > 0) {
      overlap++
      counts.set(word, left - 1)
    }
  }
  const precision = overlap / got.length
  const recall = overlap / expected.length
  return overlap === 0 ? 0 : (2 * precision * recall) / (precision + recall)
}

function printReports(reports: ChildReport[]): void {
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  for (const report of reports) {
    const times = report.pages.map((page) => page.ms).sort((a, b) => a - b)
    const scored = report.pages.filter((page) => page.f1 !== null)
    const f1s = scored.map((page) => page.f1 as number).sort((a, b) => a - b)
    const total = times.reduce((sum, ms) => sum + ms, 0)
    const largest = report.pages.reduce<PageResult | undefined>(
      (max, page) => (max && max.bytes > page.bytes ? max : page),
      undefined,
    )
    console.log(`\n${report.dom}`)
    if (report.pages.length > 0) {
      console.log(
        `  pages: ${report.pages.length}, no article found: ${report.pages.filter((page) => !page.found).length}`,
      )
      console.log(
        `  ms per page: mean ${(total / times.length).toFixed(1)}, median ${quantile(times, 0.5)?.toFixed(1)}, p95 ${quantile(times, 0.95)?.toFixed(1)}, max ${times.at(-1)?.toFixed(1)}; largest page (${largest?.name}, ${((largest?.bytes ?? 0) / 1024).toFixed(0)} KiB) ${largest?.ms.toFixed(1)} ms`,
      )
      console.log(
        `  word F1 against Readability's expected article: mean ${(f1s.reduce((sum, f1) => sum + f1, 0) / f1s.length).toFixed(3)}, median ${quantile(f1s, 0.5)?.toFixed(3)}, pages under 0.9: ${f1s.filter((f1) => f1 < 0.9).length}`,
      )
    }
    const sampled = report.pages.filter((page) => page.heap !== null)
    if (sampled.length > 0) {
      const held = sampled.map((page) => `${page.name} ${(page.bytes / 1024).toFixed(0)} KiB -> ${mib(page.heap ?? 0)}`)
      console.log(`  memory held by a parsed document (the ${sampled.length} largest pages): ${held.join(', ')}`)
    }
    console.log(
      `  peak RSS over the run ${mib(report.peakRss)} (after loading: ${mib(report.baselineRss)}); still held after the run: ${mib(report.retained)}`,
    )
    const weak = report.pages.filter((page) => page.f1 !== null && page.f1 < 0.9)
    if (weak.length > 0)
      console.log(`  under 0.9: ${weak.map((page) => `${page.name} ${page.f1?.toFixed(3)}`).join(', ')}`)
    const stub = report.stubPage
    console.log(
      `  stub news page: ${stub.paragraphsKept}/${stub.paragraphs} article paragraphs kept; noise found: ${stub.noiseFound.length === 0 ? 'none' : stub.noiseFound.join(' | ')}`,
    )
  }
  const [first, second] = reports
  if (first && second && first.pages.length > 0) {
    const worse = first.pages.filter((page, index) => {
      const other = second.pages[index]
      return page.f1 !== null && other?.f1 != null && Math.abs(page.f1 - other.f1) > 0.05
    })
    console.log(`\npages where the two differ by more than 0.05 F1 (${first.dom} / ${second.dom}):`)
    for (const page of worse) {
      const other = second.pages.find((candidate) => candidate.name === page.name)
      console.log(`  ${page.name}: ${page.f1?.toFixed(3)} / ${other?.f1?.toFixed(3)}`)
    }
  }
}

const { values } = parseArgs({ options: { pages: { type: 'string' }, child: { type: 'string' } } })
if (values.child) {
  const report = await measure(values.child as DomName, values.pages)
  process.stdout.write(JSON.stringify(report))
} else {
  const reports: ChildReport[] = []
  for (const dom of DOMS) {
    const args = [
      '--expose-gc',
      import.meta.filename,
      '--child',
      dom,
      ...(values.pages ? ['--pages', values.pages] : []),
    ]
    try {
      const output = execFileSync(process.execPath, args, {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      reports.push(JSON.parse(output) as ChildReport)
    } catch (error) {
      const missing = String((error as { stderr?: unknown }).stderr).includes('ERR_MODULE_NOT_FOUND')
      if (!missing) throw error
      console.log(`${dom} is not installed: \`npm install --no-save ${dom}@31\` to measure it too`)
    }
  }
  printReports(reports)
}

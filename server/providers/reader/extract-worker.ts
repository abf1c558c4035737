// The worker thread that parses pages (reader/extraction-pool.ts): a hostile page can make
// Readability work for minutes (a few thousand nested elements suffice), and here that costs a
// thread the pool terminates at the read's deadline, not the event loop of the whole server.
import { parentPort } from 'node:worker_threads'
import { extractArticle } from '#server/providers/reader/extract.ts'
import { parseHtmlDocument } from '#server/providers/reader/html.ts'

export type ExtractRequest = { id: number; html: string }
export type ExtractResponse = { id: number; article: ReturnType<typeof extractArticle> } | { id: number; error: string }

parentPort?.on('message', ({ id, html }: ExtractRequest) => {
  let answer: ExtractResponse
  try {
    answer = { id, article: extractArticle(parseHtmlDocument(html)) }
  } catch (error) {
    // A stack overflow on deep markup, or Readability giving up: the page cannot be read.
    answer = { id, error: error instanceof Error ? error.message : String(error) }
  }
  parentPort?.postMessage(answer)
})

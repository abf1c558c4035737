// A document of the local corpus, readable: the page a corpus source links to (its own name,
// https://corpus.local/<path>, is no address anyone can open). Public, like the trial runs that
// cite it: the corpus is one for the whole server. An invented sample article says so first.
import { data } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { ReportMarkdown } from '#app/components/report-markdown.tsx'
import { servicesContext } from '#app/context.ts'
import { corpusUrlOfPage } from '#server/text/corpus-url.ts'
import type { Route } from './+types/corpus-document'

/** Longer than any corpus URL a file name makes; a longer path is no document, and not worth a query. */
const MAX_PATH_CHARACTERS = 2000

export function meta({ loaderData }: Route.MetaArgs) {
  return [
    { title: loaderData ? `${loaderData.document.title} · Sextant corpus` : 'Corpus document · Sextant' },
    // Invented articles must not turn up in a search engine as if they were news.
    { name: 'robots', content: 'noindex' },
  ]
}

export async function loader(args: Route.LoaderArgs) {
  const services = args.context.get(servicesContext)
  const request = new URL(args.request.url)
  const path = `${request.pathname}${request.search}`
  const url = path.length <= MAX_PATH_CHARACTERS ? corpusUrlOfPage(path) : undefined
  const document = url ? await services.corpus.document(url) : undefined
  if (!document) throw data('There is no corpus document at this address.', { status: 404 })
  return { document }
}

export default function CorpusDocument({ loaderData }: Route.ComponentProps) {
  const { document } = loaderData
  return (
    <AppShell>
      <article className="mx-auto flex max-w-3xl flex-col gap-4">
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {document.invented ? (
            <>
              <strong className="font-semibold">Invented sample article.</strong> It ships with Sextant for trying it
              offline: the companies, people, figures and events in it are made up, and it is not from the web.
            </>
          ) : (
            <>
              <strong className="font-semibold">A document of this server's local corpus,</strong> indexed from a folder
              on the server: not a page of the web.
            </>
          )}
        </p>
        <header>
          <h1 className="text-2xl font-semibold tracking-tight break-words">{document.title}</h1>
          {document.publishedDate ? (
            <p className="mt-1 text-sm text-slate-600">
              Dated {document.publishedDate}
              {document.invented ? ' (sample dates move with the day the sample was indexed)' : ''}
            </p>
          ) : null}
        </header>
        <div className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <ReportMarkdown markdown={document.text} sourceUrls={[]} headingLevel={2} />
        </div>
      </article>
    </AppShell>
  )
}

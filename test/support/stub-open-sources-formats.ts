// The open sources' answers that are more than a JSON object: arXiv's Atom, as its API user manual
// shows it (info.arxiv.org/help/api/user-manual.html), and what each source says when it refuses a
// query or a client that asks too fast.
import type { OpenSourceName, StubOpenDocument } from '#test/support/stub-open-sources.ts'

/** Text escaped for XML (and for HTML, which the Algolia stub borrows it for). */
export function atomText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

export function atomFeed(query: string, documents: StubOpenDocument[]): string {
  const entries = documents.map((document, index) => {
    const id = /arxiv\.org\/abs\/(.+)$/.exec(document.url)?.[1] ?? `2609.${String(10_000 + index)}`
    return `  <entry>
    <id>http://arxiv.org/abs/${id}v1</id>
    <updated>${document.publishedDate.replace(/\.\d+Z$/, 'Z')}</updated>
    <published>${document.publishedDate.replace(/\.\d+Z$/, 'Z')}</published>
    <title>${wrap(atomText(document.title))}</title>
    <summary>  ${wrap(atomText(document.text))}
</summary>
    <author>
      <name>A. Researcher</name>
    </author>
    <author>
      <name>B. Co-Author</name>
    </author>
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">12 pages, 4 figures</arxiv:comment>
    <link href="http://arxiv.org/abs/${id}v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/${id}v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cond-mat.mtrl-sci" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cond-mat.mtrl-sci" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`
  })
  const self = `http://arxiv.org/api/query?search_query%3D${encodeURIComponent(query)}%26id_list%3D%26start%3D0%26max_results%3D${documents.length}`
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="${atomText(self)}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=${atomText(query)}&amp;id_list=&amp;start=0&amp;max_results=${documents.length}</title>
  <id>http://arxiv.org/api/stub</id>
  <updated>${new Date().toISOString().slice(0, 10)}T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${documents.length}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">0</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${documents.length}</opensearch:itemsPerPage>
${entries.join('\n')}
</feed>
`
}

/** arXiv's error answer: a 200 with one entry whose id points at the errors page. */
export function atomError(message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3D%26id_list%3D%26start%3D0%26max_results%3D10" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query=&amp;id_list=&amp;start=0&amp;max_results=10</title>
  <id>http://arxiv.org/api/errors</id>
  <updated>2026-09-01T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/api/errors#${message.replace(/\W+/g, '_')}</id>
    <title>Error</title>
    <summary>${atomText(message)}</summary>
    <updated>2026-09-01T00:00:00-04:00</updated>
    <link href="http://arxiv.org/api/errors#${message.replace(/\W+/g, '_')}" rel="alternate" type="text/html"/>
    <author>
      <name>arXiv api core</name>
    </author>
  </entry>
</feed>
`
}

/** Long lines broken as submitters' lines are. */
function wrap(text: string): string {
  return text.replace(/(.{60,}?) /g, '$1\n  ')
}

export const RATE_LIMIT_TYPE: Record<OpenSourceName, string> = {
  gdelt: 'text/html',
  wikipedia: 'text/html; charset=utf-8',
  openalex: 'application/json',
  arxiv: 'text/plain',
  hackernews: 'application/json; charset=utf-8',
}

export const RATE_LIMIT_TEXT: Record<OpenSourceName, string> = {
  gdelt: 'Please limit requests to one every 5 seconds or contact kalev.leetaru5@gmail.com for larger queries.',
  wikipedia:
    '<!DOCTYPE html><html><head><title>Wikimedia Error</title></head><body><p>Too many requests.</p></body></html>',
  openalex: JSON.stringify({ error: 'Rate limit exceeded', message: 'Too many requests. Slow down.' }),
  arxiv: 'Rate exceeded.',
  hackernews: JSON.stringify({ message: 'Too many requests', status: 429 }),
}

export const REFUSALS: Record<OpenSourceName, [number, string, string]> = {
  gdelt: [200, 'text/html', 'The specified phrase is too short.\n'],
  wikipedia: [
    200,
    'application/json; charset=utf-8',
    JSON.stringify({
      error: { code: 'invalidparammix', info: 'The parameters "gsrsearch" and "titles" can not be used together.' },
      servedby: 'mw-api-ext.stub',
    }),
  ],
  openalex: [
    400,
    'application/json',
    JSON.stringify({ error: 'Invalid query parameters error.', message: 'from_publication_date is not a valid date' }),
  ],
  arxiv: [200, 'application/atom+xml; charset=utf-8', atomError('incorrect value for max_results')],
  hackernews: [
    400,
    'application/json; charset=utf-8',
    JSON.stringify({ message: 'Invalid syntax for numeric filters', status: 400 }),
  ],
}

// A report's markdown (or any page- or model-written markdown shown with a report) as the tree its
// renderers walk: the text policy first (bidi controls out, link-shaped text defused, as stored and
// as API clients get it: server/text/markdown-links.ts), then parsed once, then the link policy and
// the citations on the tree. Renderers only draw what is there: a link node is safe to link.
import type { Root } from 'mdast'
import { markCitations } from '#server/text/markdown/citations.ts'
import { applyLinkPolicy, type LinkOptions } from '#server/text/markdown/link-policy.ts'
import { parseMarkdown } from '#server/text/markdown/parse.ts'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'

/**
 * `sourceUrls` in order: [n] cites sourceUrls[n - 1], and they are the only URLs a link may point
 * to. `options.site`: see LinkOptions (where a corpus document's page is).
 */
export function reportTree(markdown: string, sourceUrls: readonly string[], options: LinkOptions = {}): Root {
  const tree = parseMarkdown(sanitizeMarkdown(markdown, sourceUrls))
  return markCitations(applyLinkPolicy(tree, sourceUrls, options), sourceUrls, options)
}

// Citations: "[2]", "[1, 3]" and "[1][2]" in a report's text point into its numbered sources. In
// the tree they are nodes of their own, so each renderer links them its way (a superscript on the
// run page, <url|n> in Slack) and none of them looks for them in text again.
import type { Node, Parent, PhrasingContent, Root, Text } from 'mdast'
import { type LinkOptions, safeHref } from '#server/text/markdown/link-policy.ts'

/** One marker: "[2]" or "[1, 3]". A bracketed number followed by "(" is a link's text, not a citation. */
export const CITATION_MARKER = /\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\](?!\()/g

/**
 * `url`: the source's URL when the report has source n; `href`: where a link to it may point, as
 * the link policy decides (none for a URL that is no web address, a corpus document's page).
 */
export type CitedSource = { n: number; url: string | undefined; href: string | undefined }

/** A citation marker: its numbers, each with its source when the report has that source. */
export interface Citation extends Node {
  type: 'citation'
  sources: CitedSource[]
}

declare module 'mdast' {
  interface PhrasingContentMap {
    citation: Citation
  }
  interface RootContentMap {
    citation: Citation
  }
}

/** The numbers of one marker, "[1, 3]" -> [1, 3]. */
export function markerNumbers(marker: string): number[] {
  return (marker.match(/\d+/g) ?? []).map(Number)
}

/**
 * Marks citations in the text of `tree` (outside links) in place: [n] cites sourceUrls[n - 1]. A
 * marker none of whose numbers has a source stays text.
 */
export function markCitations(tree: Root, sourceUrls: readonly string[], options: LinkOptions = {}): Root {
  const parents: Parent[] = [tree]
  while (parents.length > 0) {
    const parent = parents.pop() as Parent
    const children: Parent['children'] = []
    for (const child of parent.children) {
      if (child.type === 'text') children.push(...splitCitations(child, sourceUrls, options))
      else children.push(child)
      if ('children' in child && child.type !== 'link') parents.push(child)
    }
    parent.children = children
  }
  return tree
}

function splitCitations(node: Text, sourceUrls: readonly string[], options: LinkOptions): PhrasingContent[] {
  const pieces: PhrasingContent[] = []
  let last = 0
  for (const match of node.value.matchAll(CITATION_MARKER)) {
    const sources = markerNumbers(match[0]).map((n) => {
      const url = n >= 1 ? sourceUrls[n - 1] : undefined
      return { n, url, href: url === undefined ? undefined : safeHref(url, options) }
    })
    if (!sources.some((source) => source.url)) continue
    if (match.index > last) pieces.push({ type: 'text', value: node.value.slice(last, match.index) })
    pieces.push({ type: 'citation', sources })
    last = match.index + match[0].length
  }
  if (last === 0) return [node]
  if (last < node.value.length) pieces.push({ type: 'text', value: node.value.slice(last) })
  return pieces
}

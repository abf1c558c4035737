// Which links a report may hold, decided once on the tree that every renderer walks: an inline link
// whose target is one of the run's sources and an absolute http(s) URL, or a document of the local
// corpus, linked to its page on this server. Every other link-shaped node (a link elsewhere, an
// image, a reference) becomes its text; definitions go. Raw HTML is never parsed as HTML
// (parse.ts), so it is text already.
import type { Nodes, Parent, PhrasingContent, Root, RootContent } from 'mdast'
import { corpusPagePath } from '#server/text/corpus-url.ts'

export type LinkOptions = {
  /**
   * This server's public URL, for text read away from its pages (Slack): a corpus document links to
   * its page there. Without it (the pages themselves), to the page's path on this site.
   */
  site?: string
}

/**
 * A link target only when it is an absolute http(s) URL, or a local corpus document (its page here:
 * its own name, https://corpus.local/<path>, is no address); javascript:, data: and the rest are refused.
 */
export function safeHref(raw: string, options: LinkOptions = {}): string | undefined {
  if (!URL.canParse(raw)) return undefined
  const corpusPage = corpusPagePath(raw)
  if (corpusPage) return `${options.site ?? ''}${corpusPage}`
  const url = new URL(raw)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
}

/** Applies the policy in place; a kept link's url is its href (normalised, a corpus document's page). */
export function applyLinkPolicy(tree: Root, allowedUrls: Iterable<string>, options: LinkOptions = {}): Root {
  const allowed = new Set(allowedUrls)
  const hrefOf = (url: string) => (allowed.has(url) ? safeHref(url, options) : undefined)
  const parents: Parent[] = [tree]
  while (parents.length > 0) {
    const parent = parents.pop() as Parent
    const children: RootContent[] = []
    for (const child of parent.children) {
      const replaced = allowedNode(child, hrefOf)
      for (const node of replaced) {
        // Text that a flattened link leaves beside other text is one text again, as it reads.
        const previous = children.at(-1)
        if (node.type === 'text' && previous?.type === 'text') {
          children[children.length - 1] = { type: 'text', value: previous.value + node.value }
          continue
        }
        children.push(node)
        if ('children' in node) parents.push(node)
      }
    }
    parent.children = children
  }
  return tree
}

/** The node as the policy allows it: itself, its children in its place, its text, or nothing. */
function allowedNode(node: RootContent, hrefOf: (url: string) => string | undefined): RootContent[] {
  switch (node.type) {
    case 'link': {
      const href = hrefOf(node.url)
      if (!href) return node.children.flatMap((child) => allowedNode(child, hrefOf))
      // Titles are not shown anywhere; a kept link is its target and its words.
      return [{ type: 'link', url: href, children: node.children }]
    }
    case 'linkReference':
      return node.children.flatMap((child) => allowedNode(child, hrefOf))
    case 'image':
    case 'imageReference':
      return node.alt ? [text(node.alt, node)] : []
    case 'definition':
    case 'footnoteDefinition':
      return []
    default:
      return [node]
  }
}

function text(value: string, from: Nodes): PhrasingContent {
  return { type: 'text', value, ...(from.position ? { position: from.position } : {}) }
}

// Reports are markdown; Slack speaks mrkdwn: *bold*, _italic_, ~strike~, <url|label> links, no
// headings (a bold line instead), and &, < and > escaped everywhere, code included. Drawn from the
// tree of server/text/markdown, where links and citations were already decided.
import type { Nodes, PhrasingContent, Root, RootContent } from 'mdast'
import type { Citation } from '#server/text/markdown/citations.ts'
import type { LinkOptions } from '#server/text/markdown/link-policy.ts'
import { plainText } from '#server/text/markdown/plain.ts'
import { reportTree } from '#server/text/markdown/report-tree.ts'

export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

export function slackLink(url: string, label: string): string {
  // A "|" or ">" would end the label early; Slack has no escape for them inside a link.
  return `<${url.replaceAll('>', '%3E').replaceAll('|', '%7C')}|${escapeMrkdwn(label).replaceAll('|', '¦')}>`
}

/**
 * [n] cites sourceUrls[n - 1], and the sources are the only URLs a link may point to. `options.site`:
 * this server's public URL, where a corpus document's page is (Slack has no "this site").
 */
export function markdownToMrkdwn(
  markdown: string,
  sourceUrls: readonly string[] = [],
  options: LinkOptions = {},
): string {
  return treeToMrkdwn(reportTree(markdown, sourceUrls, options))
}

function treeToMrkdwn(tree: Root): string {
  return blocks(tree.children, '')
}

/**
 * Blocks one per line; a blank line between two only where the markdown had one, since Slack has no
 * margins and the writer's blank lines are all the spacing there is (they also mark where a long
 * message may be split: split-text.ts).
 */
function blocks(nodes: RootContent[], indent: string): string {
  let out = ''
  let previous: RootContent | undefined
  for (const node of nodes) {
    if (previous) out += gap(previous, node) ? `\n\n${indent}` : `\n${indent}`
    out += block(node, indent)
    previous = node
  }
  return out
}

function gap(previous: Nodes, next: Nodes): boolean {
  const end = previous.position?.end.line
  const start = next.position?.start.line
  return end !== undefined && start !== undefined && start > end + 1
}

function block(node: RootContent, indent: string): string {
  switch (node.type) {
    case 'heading':
      return `*${inline(node.children, true)}*`
    case 'paragraph':
      return inline(node.children, false)
    case 'list': {
      let out = ''
      for (const [index, item] of node.children.entries()) {
        const previous = node.children[index - 1]
        if (previous) out += gap(previous, item) ? `\n\n${indent}` : `\n${indent}`
        const marker = node.ordered ? `${(node.start ?? 1) + index}.` : '•'
        out += `${marker} ${blocks(item.children, `${indent}  `)}`
      }
      return out
    }
    case 'blockquote':
      return blocks(node.children, '')
        .split('\n')
        .map((line) => `> ${line}`)
        .join(`\n${indent}`)
    case 'code':
      return `\`\`\`\n${escapeMrkdwn(node.value)}\n\`\`\``
    case 'thematicBreak':
      return '---'
    default:
      return inline([node as PhrasingContent], false)
  }
}

/** Inside bold (a heading, **strong**) an inner "*" would end the bold early, so it goes. */
function inline(nodes: PhrasingContent[], bold: boolean): string {
  let out = ''
  for (const node of nodes) out += phrasing(node, bold)
  return out
}

function phrasing(node: PhrasingContent, bold: boolean): string {
  switch (node.type) {
    case 'text': {
      const text = escapeMrkdwn(node.value)
      return bold ? text.replaceAll('*', '') : text
    }
    case 'break':
      return '\n'
    case 'strong':
      return bold ? inline(node.children, true) : `*${inline(node.children, true)}*`
    case 'emphasis':
      return `_${inline(node.children, bold)}_`
    case 'delete':
      return `~${inline(node.children, bold)}~`
    case 'inlineCode':
      return `\`${escapeMrkdwn(node.value)}\``
    case 'link':
      return slackLink(node.url, plainText(node))
    case 'citation':
      return citation(node)
    default:
      return escapeMrkdwn(plainText(node))
  }
}

/** [<url|1>, <url|3>]: each number with a source links to it, where the link policy lets it. */
function citation(node: Citation): string {
  const numbers = node.sources.map((source) => (source.href ? slackLink(source.href, String(source.n)) : source.n))
  return `[${numbers.join(', ')}]`
}

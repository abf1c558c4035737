// Reports are markdown; Slack speaks mrkdwn: *bold*, _italic_, ~strike~, <url|label> links, no
// headings, and &, < and > escaped. Code (inline and fenced) passes through untouched but escaped.

const BOLD = '\uE000' // private-use characters: placeholders no report contains

export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}

export function slackLink(url: string, label: string): string {
  // A "|" or ">" would end the label early; Slack has no escape for them inside a link.
  return `<${url.replaceAll('>', '%3E').replaceAll('|', '%7C')}|${escapeMrkdwn(label).replaceAll('|', '¦')}>`
}

export function markdownToMrkdwn(markdown: string): string {
  let inFence = false
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence
        return line
      }
      if (inFence) return escapeMrkdwn(line)
      const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
      if (heading) return `*${inline(heading[1] as string).replaceAll('*', '')}*`
      const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line)
      if (bullet) return `${bullet[1]}• ${inline(bullet[2] as string)}`
      const quote = /^\s*>\s?(.*)$/.exec(line)
      if (quote) return `> ${inline(quote[1] as string)}`
      return inline(line)
    })
    .join('\n')
}

/** One line's inline markup; `code` spans are kept apart so nothing inside them is converted. */
function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((segment, index) => (index % 2 === 1 ? escapeMrkdwn(segment) : inlineOutsideCode(segment)))
    .join('')
}

function inlineOutsideCode(text: string): string {
  const links: string[] = []
  // Links first, out of the way of the emphasis rules (URLs have underscores and asterisks).
  const withoutLinks = text.replace(/\[([^[\]]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) => {
    links.push(slackLink(url, label))
    return `\uE001${links.length - 1}\uE001`
  })
  return escapeMrkdwn(withoutLinks)
    .replace(/\*\*(.+?)\*\*|__(.+?)__/g, (_, a?: string, b?: string) => `${BOLD}${a ?? b}${BOLD}`)
    .replace(/(^|[^\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)/g, '$1_$2_')
    .replace(/~~(.+?)~~/g, '~$1~')
    .replaceAll(BOLD, '*')
    .replace(/\uE001(\d+)\uE001/g, (_, index: string) => links[Number(index)] as string)
}

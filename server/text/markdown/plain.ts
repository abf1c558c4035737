// A node's words as plain text: what a link label, a heading or an image's alt says without markup.
// Iterative, so no tree is too deep for it.
import type { Nodes } from 'mdast'

export function plainText(node: Nodes): string {
  let text = ''
  const stack: Nodes[] = [node]
  while (stack.length > 0) {
    const current = stack.pop() as Nodes
    switch (current.type) {
      case 'citation':
        text += `[${current.sources.map((source) => source.n).join(', ')}]`
        break
      case 'break':
        text += '\n'
        break
      case 'image':
      case 'imageReference':
        text += current.alt ?? ''
        break
      default:
        if ('value' in current) text += current.value
        if ('children' in current)
          for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i] as Nodes)
    }
  }
  return text
}

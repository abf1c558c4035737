// Reading an Atom document the way a feed reader does: well-formed XML (fast-xml-parser's validator),
// then the elements RFC 4287 requires, checked one by one.
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { expect } from 'vitest'

export type AtomEntry = {
  id: string
  title: string
  updated: string
  published?: string
  links: string[]
  content: string
}
export type AtomFeed = {
  id: string
  title: string
  updated: string
  author: string
  links: string[]
  entries: AtomEntry[]
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

type Node = Record<string, unknown>
const text = (value: unknown): string =>
  typeof value === 'object' && value !== null ? String((value as Node)['#text'] ?? '') : String(value ?? '')
const hrefs = (links: unknown): string[] => ((links as Node[] | undefined) ?? []).map((link) => String(link['@_href']))

/** Parses and checks the document; fails the test on anything a reader could not rely on. */
export function parseAtom(xml: string): AtomFeed {
  expect(XMLValidator.validate(xml)).toBe(true)
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    isArray: (name) => name === 'entry' || name === 'link',
  })
  const feed = (parser.parse(xml) as { feed?: Node }).feed
  expect(feed, 'a <feed> root').toBeDefined()
  const root = feed as Node
  expect(root['@_xmlns']).toBe('http://www.w3.org/2005/Atom')
  for (const name of ['id', 'title', 'updated', 'author']) expect(root[name], `feed/${name}`).toBeDefined()
  expect(text(root.updated)).toMatch(RFC3339)
  const entries = ((root.entry as Node[] | undefined) ?? []).map((entry) => {
    for (const name of ['id', 'title', 'updated', 'link']) expect(entry[name], `entry/${name}`).toBeDefined()
    expect(text(entry.updated)).toMatch(RFC3339)
    return {
      id: text(entry.id),
      title: text(entry.title),
      updated: text(entry.updated),
      published: entry.published === undefined ? undefined : text(entry.published),
      links: hrefs(entry.link),
      content: text(entry.content),
    }
  })
  return {
    id: text(root.id),
    title: text(root.title),
    updated: text(root.updated),
    author: text((root.author as Node).name),
    links: hrefs(root.link),
    entries,
  }
}

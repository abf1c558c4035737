// Answers checked against the OpenAPI document the app serves: the status must be one the operation
// declares, its required headers present, and a JSON body valid against the declared schema (with
// its additionalProperties: false). Tests only: production does not validate its own answers.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

type Fetch = (path: string, init?: RequestInit) => Promise<Response>
type Node = Record<string, unknown>

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch'])

function child(node: unknown, key: string): unknown {
  return typeof node === 'object' && node !== null ? (node as Node)[key] : undefined
}

/** A JSON pointer segment (RFC 6901). */
function segment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** Where a local `$ref` points, as pointer segments. */
function refSegments(ref: string): string[] {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
}

function at(document: Node, segments: string[]): unknown {
  return segments.reduce<unknown>(child, document)
}

/** The document's path template that a request path matches, e.g. /api/briefs/{runId}. */
function templateOf(document: Node, pathname: string): string | undefined {
  return Object.keys((document.paths ?? {}) as Node).find((template) => {
    const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')
    return new RegExp(`^${escaped}$`).test(pathname)
  })
}

/**
 * A fetch that checks each answer against the document and records what does not match. `problems`
 * lists them ("GET /api/me 200: /account must have required property 'id'"); `operations` the
 * METHOD template pairs it saw, so a test can say what it covered.
 */
export function contractCheckedFetch(fetch: Fetch, document: Node) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(document, 'openapi', undefined, false)
  const problems: string[] = []
  const operations = new Set<string>()

  async function check(method: string, pathname: string, response: Response): Promise<void> {
    const template = templateOf(document, pathname)
    const operation = template && at(document, ['paths', template, method.toLowerCase()])
    if (!template || !operation || !HTTP_METHODS.has(method.toLowerCase())) {
      problems.push(`${method} ${pathname}: no such operation in the document`)
      return
    }
    const label = `${method} ${template} ${response.status}`
    operations.add(`${method} ${template}`)
    let pointer = ['paths', template, method.toLowerCase(), 'responses', String(response.status)]
    let declared = at(document, pointer)
    const ref = child(declared, '$ref')
    if (typeof ref === 'string') {
      pointer = refSegments(ref)
      declared = at(document, pointer)
    }
    if (!declared) {
      problems.push(`${label}: the status is not documented`)
      return
    }
    for (const [name, header] of Object.entries((child(declared, 'headers') ?? {}) as Node)) {
      const headerRef = child(header, '$ref')
      const resolved = typeof headerRef === 'string' ? at(document, refSegments(headerRef)) : header
      if (child(resolved, 'required') === true && !response.headers.has(name)) {
        problems.push(`${label}: the required header ${name} is missing`)
      }
    }
    const content = child(declared, 'content') as Node | undefined
    const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? ''
    if (!content) return
    if (!(mediaType in content)) {
      problems.push(`${label}: ${mediaType || 'no content type'} is not documented (${Object.keys(content)})`)
      return
    }
    if (!mediaType.endsWith('json')) return
    const schemaPointer = [...pointer, 'content', mediaType, 'schema'].map(segment).join('/')
    const validate = ajv.getSchema(`openapi#/${schemaPointer}`)
    if (!validate) throw new Error(`${label}: no schema at ${schemaPointer}`)
    if (!validate(await response.clone().json())) {
      for (const error of validate.errors ?? []) {
        problems.push(`${label}: ${error.instancePath || '(root)'} ${error.message} ${JSON.stringify(error.params)}`)
      }
    }
  }

  async function checkedFetch(path: string, init?: RequestInit): Promise<Response> {
    const response = await fetch(path, init)
    await check(init?.method ?? 'GET', new URL(path, 'http://x').pathname, response)
    return response
  }

  return { fetch: checkedFetch, problems, operations }
}

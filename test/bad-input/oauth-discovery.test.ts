// An MCP client without an API key (mcp-remote, Claude Desktop) gets 401 and then tries OAuth:
// discovery documents, then dynamic client registration at POST /register. Sextant has no OAuth;
// each step must answer JSON that says so, never a page or the pages' CSRF refusal.
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  registerClient,
} from '@modelcontextprotocol/sdk/client/auth.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestApp, type TestApp } from '#test/support/app.ts'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ env: { RUN_ROLE: 'web' } })
})
afterAll(() => app.stop())

test('every OAuth discovery path and POST /register answer a JSON 404 that names API keys', async () => {
  const requests: Array<[string, RequestInit]> = [
    ['/.well-known/oauth-protected-resource', {}],
    ['/.well-known/oauth-protected-resource/api/mcp', {}],
    ['/.well-known/oauth-authorization-server', {}],
    ['/.well-known/openid-configuration', {}],
    [
      '/register',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: 'http://localhost:6274' },
        body: JSON.stringify({ redirect_uris: ['http://localhost:6274/callback'] }),
      },
    ],
  ]
  for (const [path, init] of requests) {
    const response = await app.fetch(path, init)
    expect(response.status, path).toBe(404)
    expect(response.headers.get('content-type'), path).toMatch(/^application\/problem\+json/)
    expect((await response.json()).detail, path).toMatch(/Authorization: Bearer/)
  }
})

test("the MCP SDK's own OAuth client finds no OAuth server and is told to use a bearer key", async () => {
  await expect(discoverOAuthProtectedResourceMetadata(new URL('/api/mcp', app.url))).rejects.toThrow()
  expect(await discoverAuthorizationServerMetadata(new URL(app.url))).toBeUndefined()
  await expect(
    registerClient(new URL(app.url), { clientMetadata: { redirect_uris: ['http://localhost:6274/callback'] } }),
  ).rejects.toThrow(/Bearer/)
})

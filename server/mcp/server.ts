// The MCP server: the nine tools of spec 4, for one caller. A new server is made per request
// (Streamable HTTP is stateless) or per SSE session, bound to the account that authenticated, so a
// tool can only ever see that account's runs and topics. The tools live by domain beside this file.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { McpError } from '@modelcontextprotocol/sdk/types.js'
import { registerFrameworkTools } from '#server/mcp/framework-tools.ts'
import { registerRunTools } from '#server/mcp/run-tools.ts'
import { type McpCaller, problem } from '#server/mcp/tool-context.ts'
import { registerTopicTools } from '#server/mcp/topic-tools.ts'
import type { WebServices } from '#server/services.ts'

export type { McpCaller } from '#server/mcp/tool-context.ts'

const VERSION = '0.1.0'

export function createMcpServer(services: WebServices, caller: McpCaller): McpServer {
  const server = new McpServer({ name: 'sextant', version: VERSION }, { capabilities: { logging: {} } })

  // The SDK hands a thrown error's message to the client as the tool's answer; an unexpected one
  // (a database error, say) would leak our internals. It is logged and answered in general terms.
  const registerTool = ((name, config, handler) =>
    server.registerTool(name, config, (async (...args: unknown[]) => {
      try {
        return await (handler as (...args: unknown[]) => unknown)(...args)
      } catch (error) {
        if (error instanceof McpError) throw error
        services.log.error({ err: error, tool: name, accountId: caller.accountId }, 'MCP tool failed')
        return problem(`Sextant could not complete ${name} because of a server error. Try again in a moment.`)
      }
    }) as typeof handler)) as typeof server.registerTool

  const tools = { services, caller, registerTool }
  registerRunTools(tools)
  registerTopicTools(tools)
  registerFrameworkTools(tools)
  return server
}

// What each module of tools (runs, topics, frameworks) gets from server.ts: the services, the caller
// the server is bound to, and the server's registerTool; and the two shapes a tool answers in.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import type { DemoVisitor } from '#server/accounts/contract.ts'
import type { ToolOutput } from '#server/contracts/mcp.ts'
import type { Requester } from '#server/runs/service.ts'
import type { WebServices } from '#server/services.ts'

export type McpCaller = {
  accountId: string
  /** Who starts runs, for admission (limits, recurring allowed). */
  requester: Requester
  /** With the demo key: the visitor's account, written when its first run starts. */
  visitor?: DemoVisitor
}

export type ToolContext = {
  services: WebServices
  caller: McpCaller
  /** The server's registerTool, wrapped so an unexpected error is logged and answered in general terms. */
  registerTool: McpServer['registerTool']
}

/**
 * A tool's answer: its structured content, which must be what its output schema (server/contracts/mcp.ts)
 * says, or `npm run typecheck` fails, and its text (the content as JSON when none is given).
 */
export function ok<Output extends z.ZodRawShape | z.ZodType>(
  _output: Output,
  content: ToolOutput<Output>,
  text?: string,
): CallToolResult {
  const structured = content as Record<string, unknown>
  return {
    content: [{ type: 'text', text: text ?? JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  }
}

/** An expected failure the model can act on: not a protocol error. */
export function problem(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

// The MCP tool for the research frameworks: the static catalogue a brief's frameworkId names.
import { ok, type ToolContext } from '#server/mcp/tool-context.ts'
import { listFrameworks } from '#server/vocabulary/frameworks/index.ts'
import { FrameworkFilterSchema, FrameworkListSchema } from '#server/vocabulary/frameworks/types.ts'

export function registerFrameworkTools({ registerTool }: ToolContext): void {
  registerTool(
    'list_frameworks',
    {
      title: 'Research frameworks',
      description:
        'The research frameworks (analysis lenses) a brief can apply with frameworkId, optionally with reportStyle "framework": ' +
        'what each is for, the questions it asks and the report sections it produces.',
      inputSchema: FrameworkFilterSchema.shape,
      outputSchema: FrameworkListSchema.shape,
      annotations: { readOnlyHint: true },
    },
    async (filter) => ok(FrameworkListSchema, listFrameworks(filter)),
  )
}

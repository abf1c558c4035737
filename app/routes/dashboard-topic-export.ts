// A topic's memory as a Markdown download (the same document as the `export_topic` tool).
import { servicesContext } from '#app/context.ts'
import { requireAccount } from '#app/session.server.ts'
import { exportDisposition, TOPIC_NOT_FOUND } from '#app/topics.server.ts'
import type { Route } from './+types/dashboard-topic-export'

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const file = await args.context.get(servicesContext).topics.export(account.id, { topicId: args.params.topicId })
  if (!file) {
    return Response.json(
      { type: 'about:blank', title: 'Not Found', status: 404, detail: TOPIC_NOT_FOUND },
      { status: 404, headers: { 'Content-Type': 'application/problem+json' } },
    )
  }
  return new Response(file.markdown, {
    headers: {
      'Content-Type': 'text/markdown; charset=utf-8',
      'Content-Disposition': exportDisposition(file.topic),
      // Decrypted memory: not for shared caches, nor for the browser's disk cache.
      'Cache-Control': 'private, no-store',
    },
  })
}

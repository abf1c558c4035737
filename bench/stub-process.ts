// The benchmark's stub providers in a process of their own (issue 21), so the CPU they burn is not
// counted as anyone else's and the harness's event loop (its SSE and HTTP clients) does not delay their
// answers. bench/stubs.ts spawns it with an IPC channel and asks over it what was served; the process
// ends on SIGTERM (the harness's close) or when that channel closes, which happens however the harness
// ends: stopped, crashed or killed. Either way there is nothing to save, so the stubs are not closed.
import { type StubMessage, StubOptionsSchema, type StubRequest, StubRequestSchema } from '#bench/stub-protocol.ts'
import { startProviderStubs } from '#bench/stub-providers.ts'

// Registered first: a harness that died while this process started must not leave it running.
process.on('disconnect', () => process.exit(0))
if (!process.send || !process.connected) {
  console.error('bench/stub-process.ts is started by the benchmark (bench/stubs.ts), with an IPC channel')
  process.exit(1)
}

const options = StubOptionsSchema.parse(JSON.parse(process.argv[2] ?? 'null'))
const stubs = await startProviderStubs(options.latency, options.limits)

function answer(request: StubRequest): unknown {
  switch (request.method) {
    case 'callsFor':
      // Stamped as the harness stamps its requests and events (timeOrigin + the monotonic clock, which
      // Linux shares between processes): the two agree to microseconds, so they compare directly.
      return stubs.callsFor(request.topic)
    case 'servedFor':
      return stubs.servedFor(request.topic)
    case 'setNewShare':
      return stubs.setNewShare(request.topic, request.share, request.restating)
    case 'limitStats':
      return stubs.limitStats()
  }
}

function send(message: StubMessage) {
  process.send?.(message)
}

process.on('message', (raw) => {
  const parsed = StubRequestSchema.safeParse(raw)
  if (!parsed.success) {
    const id = (raw as { id?: unknown } | null)?.id
    if (typeof id === 'number') send({ type: 'reply', id, error: `bad request: ${parsed.error.message}` })
    return
  }
  try {
    send({ type: 'reply', id: parsed.data.id, result: answer(parsed.data) })
  } catch (error) {
    send({ type: 'reply', id: parsed.data.id, error: error instanceof Error ? error.message : String(error) })
  }
})
send({ type: 'ready', env: stubs.env })

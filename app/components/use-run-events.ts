// A run's events, live: those the loader read, then the rest from the page's event stream. The
// stream starts after the last event the page already has and, when it drops, the browser
// reconnects with Last-Event-ID, so nothing is missed or shown twice.
import { useEffect, useMemo, useState } from 'react'
import { useRevalidator } from 'react-router'
import type { TimelineEvent } from '#app/components/step-timeline.tsx'
import { isFinalEvent, RUN_EVENT_TYPES } from '#server/vocabulary/runs.ts'

/**
 * `eventsUrl` is the page's stream for the run (dashboard or trial: each checks its own cookie);
 * `loaded` are the events the loader read; `live` is whether the run may still write more. When the
 * final event arrives the stream is closed and the route's data reloaded (to fetch the report).
 */
export function useRunEvents(eventsUrl: string, loaded: readonly TimelineEvent[], live: boolean): TimelineEvent[] {
  const [streamed, setStreamed] = useState<TimelineEvent[]>([])
  const { revalidate } = useRevalidator()
  const lastLoadedId = loaded.at(-1)?.id ?? 0

  // lastLoadedId is read once per connection: later events come through the stream itself, and the
  // browser resumes it with Last-Event-ID.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reconnecting on every reload would replay the stream
  useEffect(() => {
    if (!live) return
    const source = new EventSource(`${eventsUrl}?lastEventId=${encodeURIComponent(lastLoadedId)}`)
    const onEvent = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as TimelineEvent
      setStreamed((events) => (events.some((known) => known.id === event.id) ? events : [...events, event]))
      if (isFinalEvent(event.type)) {
        source.close()
        void revalidate()
      }
    }
    for (const type of RUN_EVENT_TYPES) source.addEventListener(type, onEvent)
    // CLOSED means the server refused the stream (the run is over, or gone): reload to show why.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) void revalidate()
    }
    return () => source.close()
  }, [eventsUrl, live, revalidate])

  return useMemo(() => {
    const byId = new Map<number, TimelineEvent>()
    for (const event of [...loaded, ...streamed]) byId.set(event.id, event)
    return [...byId.values()].sort((a, b) => a.id - b.id)
  }, [loaded, streamed])
}

// A list the server keeps current over Server-Sent Events: the loader's copy first, then each
// `runs` message replaces it whole. The stream sends the full list on every (re)connect, so a
// dropped connection or a missed change heals itself with the next message.
import { useEffect, useState } from 'react'

export function useLiveList<T>(eventsUrl: string, loaded: readonly T[]): readonly T[] {
  const [streamed, setStreamed] = useState<{ from: readonly T[]; list: readonly T[] } | undefined>()

  useEffect(() => {
    const source = new EventSource(eventsUrl)
    source.addEventListener('runs', (message: MessageEvent<string>) => {
      setStreamed({ from: loaded, list: JSON.parse(message.data) as T[] })
    })
    return () => source.close()
  }, [eventsUrl, loaded])

  // After the loader runs again (a form was posted), its fresh copy wins until the stream speaks.
  return streamed && streamed.from === loaded ? streamed.list : loaded
}

import { useEffect, useState } from 'react'

// The server renders times in UTC (it cannot know the reader's zone); after hydration the browser
// switches to local time. Rendering local time straight away would not match the server's HTML.
const UTC_FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

function localFormat(withSeconds: boolean) {
  return new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: withSeconds ? '2-digit' : undefined,
  })
}

export function LocalTime({ iso, seconds = false }: { iso: string; seconds?: boolean }) {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return <>{iso}</>
  return (
    <time dateTime={iso} title={date.toISOString()}>
      {hydrated ? localFormat(seconds).format(date) : `${UTC_FORMAT.format(date)} UTC`}
    </time>
  )
}

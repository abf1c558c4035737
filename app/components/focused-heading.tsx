// A heading (or a status line) that takes focus when it appears: after an action that makes something (a key, a run),
// keyboard and screen-reader users land on what changed rather than at the top of the page, with
// nothing said. Give it a `key` that changes with what it announces, so each new one takes focus.
import { type ReactNode, useEffect, useRef } from 'react'

export function FocusedHeading({
  id,
  className,
  level = 2,
  children,
}: {
  id: string
  className?: string
  level?: 1 | 2
  children: ReactNode
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>()
  const Tag = level === 1 ? 'h1' : 'h2'
  return (
    <Tag id={id} ref={heading} tabIndex={-1} className={`${className ?? ''} outline-none`}>
      {children}
    </Tag>
  )
}

/** A status line that takes focus when it appears, so what an action did is said where focus is. */
export function Announcement({ className, children }: { className?: string; children: ReactNode }) {
  const line = useFocusOnMount<HTMLParagraphElement>()
  return (
    <p role="status" ref={line} tabIndex={-1} className={`${className ?? ''} outline-none`}>
      {children}
    </p>
  )
}

/** A ref whose element takes focus once, when it is first drawn. */
function useFocusOnMount<T extends HTMLElement>() {
  const element = useRef<T>(null)
  useEffect(() => {
    element.current?.focus()
  }, [])
  return element
}

// Parses pages off the main thread, in a few worker threads (reader/extract-worker.ts). A page whose
// read is given up on (its deadline, the run's cancellation) has its worker terminated, so no
// markup can hold a CPU past the read's 10 s; a worker that runs out of memory or crashes is
// replaced. Idle workers end after a while and never keep the process alive.
import { Worker } from 'node:worker_threads'
import type { Article } from '#server/providers/reader/extract.ts'
import type { ExtractRequest, ExtractResponse } from '#server/providers/reader/extract-worker.ts'
import { Refusal } from '#server/providers/reader/safe-fetch.ts'

export type ExtractionPool = {
  /** The page's article, or null when it has none. Rejects with the signal's reason, or a Refusal. */
  extract: (html: string, signal: AbortSignal) => Promise<Article | null>
}

type Task = {
  html: string
  signal: AbortSignal
  resolve: (article: Article | null) => void
  reject: (error: unknown) => void
}

type Slot = { worker: Worker; task: Task | null; id: number; onAbort?: () => void; idleTimer?: NodeJS.Timeout }

const WORKER_URL = new URL('./extract-worker.ts', import.meta.url)

export function createExtractionPool(options: { size: number; idleMs?: number; maxHeapMb?: number }): ExtractionPool {
  const idleMs = options.idleMs ?? 30_000
  const slots: Slot[] = []
  const queue: Task[] = []

  function spawn(): Slot {
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 256 },
    })
    const slot: Slot = { worker, task: null, id: 0 }
    worker.on('message', (answer: ExtractResponse) => {
      const task = slot.task
      if (!task || answer.id !== slot.id) return
      finish(slot)
      if ('error' in answer) task.reject(new Refusal('the page could not be parsed'))
      else task.resolve(answer.article)
    })
    // Out of memory, or a crash: the page is the likely cause, and the worker is gone either way.
    const lost = () => {
      const task = slot.task
      remove(slot)
      task?.reject(new Refusal('the page is too large to parse'))
      dispatch()
    }
    worker.on('error', lost)
    worker.on('exit', lost)
    worker.unref()
    slots.push(slot)
    return slot
  }

  function remove(slot: Slot): void {
    clearTimeout(slot.idleTimer)
    slot.task = null
    const index = slots.indexOf(slot)
    if (index >= 0) slots.splice(index, 1)
  }

  function finish(slot: Slot): void {
    if (slot.onAbort) slot.task?.signal.removeEventListener('abort', slot.onAbort)
    slot.task = null
    slot.worker.unref()
    clearTimeout(slot.idleTimer)
    slot.idleTimer = setTimeout(() => {
      remove(slot)
      void slot.worker.terminate()
    }, idleMs).unref()
    dispatch()
  }

  /** The read was given up on while its page was being parsed: end the worker, whatever it is doing. */
  function abandonRunning(slot: Slot, task: Task): void {
    if (slot.task !== task) return
    remove(slot)
    void slot.worker.terminate()
    task.reject(task.signal.reason)
    dispatch()
  }

  function dispatch(): void {
    while (queue.length > 0) {
      const slot = slots.find((candidate) => candidate.task === null) ?? (slots.length < options.size ? spawn() : null)
      if (!slot) return
      const task = queue.shift() as Task
      clearTimeout(slot.idleTimer)
      slot.task = task
      slot.id++
      slot.worker.ref() // a page is being parsed: the process waits for it
      slot.onAbort = () => abandonRunning(slot, task)
      task.signal.addEventListener('abort', slot.onAbort, { once: true })
      slot.worker.postMessage({ id: slot.id, html: task.html } satisfies ExtractRequest)
    }
  }

  return {
    extract(html, signal) {
      if (signal.aborted) return Promise.reject(signal.reason)
      return new Promise((resolve, reject) => {
        const task: Task = { html, signal, resolve, reject }
        const abandonQueued = () => {
          const index = queue.indexOf(task)
          if (index < 0) return
          queue.splice(index, 1)
          reject(signal.reason)
        }
        signal.addEventListener('abort', abandonQueued, { once: true })
        const settle =
          <T>(settler: (value: T) => void) =>
          (value: T) => {
            signal.removeEventListener('abort', abandonQueued)
            settler(value)
          }
        task.resolve = settle(resolve)
        task.reject = settle(reject)
        queue.push(task)
        dispatch()
      })
    },
  }
}

import { Worker } from "node:worker_threads"
import { type FromThread, isFromThread, type ToThread } from "./envelope.ts"

export interface PoolOptions {
  /** Threads kept waiting for work after their job; more than that end when their job does. */
  readonly maxIdle: number
  /** How long an idle thread waits for another job before it ends (its memory goes with it). */
  readonly idleMs: number
  /** A thread ends after this many jobs, so that whatever a job left behind cannot pile up for ever. */
  readonly maxJobsPerThread: number
}

/** Idle threads live long enough for a user's next step (generate, then evaluate), not for an idle server. */
export const defaultPoolOptions: PoolOptions = { maxIdle: 2, idleMs: 30_000, maxJobsPerThread: 100 }

export interface JobCallbacks<Message> {
  readonly onReport: (message: Message) => void
  readonly onFinal: (message: Message) => void
  /** The thread died before the job's final message: an exception in the job's code, or it ran out of memory. */
  readonly onCrash: (reason: string) => void
}

interface Job {
  readonly request: unknown
  readonly callbacks: JobCallbacks<unknown>
}

interface PooledThread {
  readonly worker: Worker
  ready: boolean
  jobsDone: number
  current: Job | null
  idleTimer: ReturnType<typeof setTimeout> | null
}

/**
 * Runs jobs in worker threads (modules served by `serveJobs`) and keeps a few threads warm between jobs. Starting a
 * thread loads its whole module graph (two seconds for the evaluation and generation workers, on 2 vCPUs), which
 * used to be most of a small job's time; a warm thread takes the next job at once. Cancelling a job ends its thread
 * at once, so a job never needs to cooperate to stop. Idle threads do not keep the process alive.
 *
 * The pool does not limit how many jobs run at once: its callers do (they hold permits per job).
 */
export class WorkerPool {
  readonly #entry: URL
  readonly #options: PoolOptions
  readonly #idle: Array<PooledThread> = []
  #closed = false

  constructor(entry: URL, options: PoolOptions = defaultPoolOptions) {
    this.#entry = entry
    this.#options = options
  }

  /** Threads waiting for work now (for tests and metrics). */
  get idleThreads(): number {
    return this.#idle.length
  }

  /** Starts `request` on a warm thread or a new one; the returned function cancels it (and ends its thread). */
  run<Request, Message>(request: Request, callbacks: JobCallbacks<Message>): () => void {
    const job: Job = { request, callbacks: callbacks as JobCallbacks<unknown> }
    const thread = this.#takeIdle() ?? this.#start()
    thread.current = job
    thread.worker.ref()
    if (thread.ready) this.#post(thread, job)
    return () => {
      if (thread.current !== job) return
      thread.current = null
      this.#end(thread)
    }
  }

  /** Ends the idle threads now, and every busy one when its job is done. */
  close(): Promise<void> {
    this.#closed = true
    const idle = this.#idle.splice(0)
    return Promise.all(idle.map((thread) => this.#end(thread))).then(() => undefined)
  }

  #takeIdle(): PooledThread | undefined {
    // The most recently used thread first: its caches are the warmest.
    const thread = this.#idle.pop()
    if (thread?.idleTimer != null) clearTimeout(thread.idleTimer)
    if (thread !== undefined) thread.idleTimer = null
    return thread
  }

  #start(): PooledThread {
    const thread: PooledThread = { worker: new Worker(this.#entry), ready: false, jobsDone: 0, current: null, idleTimer: null }
    thread.worker.on("message", (envelope: unknown) => {
      if (isFromThread(envelope)) this.#receive(thread, envelope)
    })
    thread.worker.on("error", (error: unknown) => this.#lost(thread, error instanceof Error ? error.message : String(error)))
    thread.worker.on("exit", (code: number) => this.#lost(thread, `the worker thread exited (code ${code}) before it answered`))
    return thread
  }

  #receive(thread: PooledThread, envelope: FromThread<unknown>) {
    if (envelope.pool === "ready") {
      thread.ready = true
      if (thread.current !== null) this.#post(thread, thread.current)
      return
    }
    const job = thread.current
    if (job === null) return
    if (envelope.pool === "report") return job.callbacks.onReport(envelope.message)
    thread.current = null
    thread.jobsDone++
    job.callbacks.onFinal(envelope.message)
    this.#release(thread, envelope.reusable)
  }

  #post(thread: PooledThread, job: Job) {
    // Copied, not transferred: a retried or redelivered job can post the same bytes again.
    thread.worker.postMessage({ pool: "job", request: job.request } satisfies ToThread<unknown>)
  }

  #release(thread: PooledThread, reusable: boolean) {
    // A job may have been started on this thread from within onFinal (a caller's next step): it stays busy.
    if (thread.current !== null) return
    const keep = reusable && !this.#closed && thread.jobsDone < this.#options.maxJobsPerThread &&
      this.#idle.length < this.#options.maxIdle
    if (!keep) return void this.#end(thread)
    thread.worker.unref()
    thread.idleTimer = setTimeout(() => {
      const index = this.#idle.indexOf(thread)
      if (index >= 0) this.#idle.splice(index, 1)
      void this.#end(thread)
    }, this.#options.idleMs)
    thread.idleTimer.unref()
    this.#idle.push(thread)
  }

  /** The thread died (or was ended): its job, if any, learns it crashed; an idle thread just leaves the pool. */
  #lost(thread: PooledThread, reason: string) {
    const index = this.#idle.indexOf(thread)
    if (index >= 0) this.#idle.splice(index, 1)
    if (thread.idleTimer !== null) clearTimeout(thread.idleTimer)
    const job = thread.current
    thread.current = null
    job?.callbacks.onCrash(reason)
  }

  #end(thread: PooledThread): Promise<void> {
    if (thread.idleTimer !== null) clearTimeout(thread.idleTimer)
    return thread.worker.terminate().then(() => undefined, () => undefined)
  }
}

const pools = new Map<string, WorkerPool>()

/**
 * The process's pool for one worker module (tests bring modules of their own), made on first use; its idle threads
 * never keep the process alive, so it needs no closing.
 */
export const poolFor = (entry: URL): WorkerPool => {
  const existing = pools.get(entry.href)
  if (existing !== undefined) return existing
  const pool = new WorkerPool(entry)
  pools.set(entry.href, pool)
  return pool
}

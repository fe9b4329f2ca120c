/**
 * What a pooled thread and its pool say to each other. The job's own messages travel inside, unchanged; the envelope
 * only tells the pool when a thread is ready for work, when a job has finished and whether the thread may take another.
 */
export type ToThread<Request> = { readonly pool: "job"; readonly request: Request }

export type FromThread<Message> =
  /** The thread's job listener is installed: a job posted now cannot be lost while its modules still load. */
  | { readonly pool: "ready" }
  | { readonly pool: "report"; readonly message: Message }
  /** The job's last message. `reusable: false` when the job left the thread holding memory it cannot give back. */
  | { readonly pool: "final"; readonly message: Message; readonly reusable: boolean }

export const isFromThread = (value: unknown): value is FromThread<unknown> =>
  typeof value === "object" && value !== null && "pool" in value

// A worker thread starts without its parent's module loader; Node (type stripping, the Node this project pins) and Deno
// both run this repository's TypeScript as it is.
await import("./evaluationWorker.ts")

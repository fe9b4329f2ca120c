// A data-parallel training's second thread. A worker thread starts without its parent's module loader: Node (20 and
// later) runs this repository's TypeScript through tsx, registered here; Deno runs it natively.
if (typeof globalThis.Deno === "undefined") {
  const { register } = await import("tsx/esm/api")
  register()
}
await import("./peerMain.ts")

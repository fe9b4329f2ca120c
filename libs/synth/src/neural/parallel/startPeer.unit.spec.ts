import { describe, expect, it } from "vitest"
import { PeerLost } from "./gradientExchange.ts"
import { bootPeer } from "./startPeer.ts"

describe("a booted peer thread", () => {
  it("takes its request once ready and reports a training it cannot run as PeerLost, with the reason", async () => {
    const boot = bootPeer()
    try {
      const peer = await boot.start({
        kind: "ctgan",
        table: { rowCount: 0, columns: [] },
        transformer: { not: "a transformer artifact" },
        settings: {} as never,
        batchRows: 10,
        seed: 1,
        steps: 1,
        generatorWeights: new Float32Array(0),
        discriminatorWeights: new Float32Array(0),
        exchange: { memory: new SharedArrayBuffer(64), floats: 1, weights: [0.5, 0.5] }
      })
      const error = await peer.finished.then(() => null, (failure: unknown) => failure)
      expect(error).toBeInstanceOf(PeerLost)
      expect((error as PeerLost).message).toMatch(/^the other training thread failed: .*transformer/i)
    } finally {
      boot.stop()
    }
  }, 60_000)

  it("ends when stopped before it gets a request, and then refuses one", async () => {
    const boot = bootPeer()
    boot.stop()
    await expect(boot.start({ kind: "tvae" } as never)).rejects.toBeInstanceOf(PeerLost)
  }, 60_000)
})

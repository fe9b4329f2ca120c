import { createServer } from "node:net"

/** What every local server script (kafka.ts, postgres.ts, minio.ts) returns: the settings naming it, and its stop. */
export interface LocalServer {
  readonly env: Readonly<Record<string, string>>
  readonly stop: () => Promise<void>
}

export interface StartOptions {
  /** Persistent between runs (e.g. `~/.cache/synth-data-service/infra`): downloads and builds are kept here. */
  readonly cacheDir: string
  /**
   * This server's directory for its data, configuration and log: a fresh one removed by `stop`, or, with `keep`, one
   * that may hold the data of an earlier run (reused: the same database, topics and objects) and is left by `stop`.
   */
  readonly runDir: string
  readonly keep?: boolean
  readonly log: (line: string) => void
}

/** Distinct free ports on 127.0.0.1: every probe stays open until all are taken, so no port is handed out twice. */
export const freePorts = async (count: number): Promise<ReadonlyArray<number>> => {
  const probes = Array.from({ length: count }, () => createServer())
  const ports = await Promise.all(
    probes.map(
      (probe) =>
        new Promise<number>((resolve, reject) => {
          probe.once("error", reject)
          probe.listen(0, "127.0.0.1", () => {
            const address = probe.address()
            if (typeof address === "object" && address !== null) resolve(address.port)
            else reject(new Error("no port"))
          })
        })
    )
  )
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))))
  return ports
}

export const freePort = async (): Promise<number> => (await freePorts(1))[0]!

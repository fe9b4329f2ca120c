/**
 * A single-node Apache Kafka (KRaft, combined broker + controller) on 127.0.0.1 for tests and local runs, without
 * Docker: the broker's jars come from Maven Central through `mvn` (deploy/local/kafka/pom.xml) into
 * `cacheDir/kafka-<version>/libs` once, and run on the machine's Java (17).
 *
 *   const kafka = await start({ cacheDir, runDir, log: console.error })
 *   kafka.env // { KAFKA_BROKERS: "127.0.0.1:<port>", KAFKA_PARTITIONS: "3" }
 *   await kafka.stop()
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { kafkaBrokerReady } from "@synth/eventlog/kafka-probe"
import { freePorts, type LocalServer, type StartOptions } from "./localServer.ts"

/** The line the adapter is tested on (@platformatic/kafka supports Kafka 3.5 through 4.2). */
export const kafkaVersion = "3.9.1"
export const partitions = 3

const pomFile = join(dirname(fileURLToPath(import.meta.url)), "kafka", "pom.xml")
const heap = "-Xmx512m"
const readyTimeoutMs = 90_000
const stopTimeoutMs = 15_000

const java = () => (process.env.JAVA_HOME ? join(process.env.JAVA_HOME, "bin", "java") : "java")

const readFileSafe = (file: string) => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return ""
  }
}

const tail = (file: string, lines = 30) => readFileSafe(file).split("\n").slice(-lines).join("\n")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const run = (label: string, command: string, args: ReadonlyArray<string>, outputFile: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const output = openSync(outputFile, "a")
    const child = spawn(command, args, { stdio: ["ignore", output, output] })
    child.once("error", (error) => {
      closeSync(output)
      reject(new Error(`cannot run ${command} for ${label}: ${error.message}`))
    })
    child.once("exit", (code, signal) => {
      closeSync(output)
      if (code === 0) resolve()
      else reject(new Error(`${label} failed (${signal ?? code}):\n${tail(outputFile)}`))
    })
  })

const ageOf = (path: string) => {
  try {
    return statSync(path).mtimeMs
  } catch {
    return Date.now()
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Cross-process: test workers may start brokers at the same moment, and Maven's local repository is not safe for two writers. */
const withLock = async <A>(lockDir: string, body: () => Promise<A>): Promise<A> => {
  for (;;) {
    try {
      mkdirSync(lockDir)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const holder = Number.parseInt(readFileSafe(join(lockDir, "pid")), 10)
      // Left by a killed process: its holder is gone, or it died between taking the lock and writing its pid.
      const abandoned = Number.isInteger(holder) ? !isAlive(holder) : Date.now() - ageOf(lockDir) > 10_000
      if (abandoned) rmSync(lockDir, { recursive: true, force: true })
      else await sleep(250)
    }
  }
  writeFileSync(join(lockDir, "pid"), String(process.pid))
  try {
    return await body()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}

/** The broker's runtime classpath, downloaded on first use; `complete` marks a directory that finished copying. */
const ensureJars = async (cacheDir: string, log: (line: string) => void): Promise<string> => {
  const home = join(cacheDir, `kafka-${kafkaVersion}`)
  const libs = join(home, "libs")
  const complete = join(home, "complete")
  if (existsSync(complete)) return libs
  mkdirSync(cacheDir, { recursive: true })
  return withLock(`${home}.lock`, async () => {
    if (existsSync(complete)) return libs
    const started = performance.now()
    log(`kafka: fetching Kafka ${kafkaVersion} jars from Maven Central into ${libs}`)
    const staging = `${home}.download`
    rmSync(staging, { recursive: true, force: true })
    mkdirSync(staging, { recursive: true })
    await run("mvn dependency:copy-dependencies", "mvn", [
      "-B",
      "-q",
      "-f",
      pomFile,
      `-Dkafka.version=${kafkaVersion}`,
      `-Dmaven.repo.local=${join(staging, "repository")}`,
      "dependency:copy-dependencies",
      "-DincludeScope=runtime",
      `-DoutputDirectory=${join(staging, "libs")}`
    ], join(staging, "mvn.log"))
    rmSync(home, { recursive: true, force: true })
    mkdirSync(home, { recursive: true })
    renameSync(join(staging, "libs"), libs)
    rmSync(staging, { recursive: true, force: true })
    writeFileSync(complete, `${new Date().toISOString()}\n${readdirSync(libs).sort().join("\n")}\n`)
    log(`kafka: ${readdirSync(libs).length} jars fetched in ${Math.round(performance.now() - started)} ms`)
    return libs
  })
}

const serverProperties = (options: { port: number; controllerPort: number; dataDir: string }) =>
  [
    "process.roles=broker,controller",
    "node.id=1",
    `controller.quorum.voters=1@127.0.0.1:${options.controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${options.port},CONTROLLER://127.0.0.1:${options.controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${options.port}`,
    "controller.listener.names=CONTROLLER",
    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
    "inter.broker.listener.name=PLAINTEXT",
    `log.dirs=${options.dataDir}`,
    `num.partitions=${partitions}`,
    "default.replication.factor=1",
    // One broker: every internal topic has one replica. Fewer offsets partitions make the first group join quick.
    "offsets.topic.replication.factor=1",
    "offsets.topic.num.partitions=5",
    "transaction.state.log.replication.factor=1",
    "transaction.state.log.min.isr=1",
    "transaction.state.log.num.partitions=5",
    // Tests join fresh groups all the time; the default 3 s delay would be added to every first join.
    "group.initial.rebalance.delay.ms=0",
    // The event-log adapter creates its topics itself (partitions, retention); a typo must not create one silently.
    "auto.create.topics.enable=false",
    ""
  ].join("\n")

const log4jProperties = (logFile: string) =>
  [
    "log4j.rootLogger=INFO, file",
    "log4j.logger.kafka.request.logger=WARN",
    "log4j.logger.state.change.logger=WARN",
    "log4j.appender.file=org.apache.log4j.FileAppender",
    `log4j.appender.file.File=${logFile}`,
    "log4j.appender.file.layout=org.apache.log4j.PatternLayout",
    "log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n",
    ""
  ].join("\n")

/** Kafka's cluster ids are 16 random bytes in URL-safe base64 without padding; a leading "-" would read as an option. */
const clusterId = (): string => {
  const id = randomBytes(16).toString("base64url")
  return id.startsWith("-") ? clusterId() : id
}

/** Ready when an admin client sees this broker and a controller (it is then able to create topics and serve groups). */
const waitUntilReady = async (broker: string, child: ChildProcess, logFile: string) => {
  const deadline = Date.now() + readyTimeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Kafka exited during startup (${child.signalCode ?? child.exitCode}):\n${tail(logFile)}`)
    }
    if (await kafkaBrokerReady(broker)) return
    await sleep(200)
  }
  throw new Error(`Kafka did not become ready within ${readyTimeoutMs / 1000} s:\n${tail(logFile)}`)
}

const exited = (child: ChildProcess, timeoutMs: number): Promise<boolean> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(true)
    : new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs)
      child.once("exit", () => {
        clearTimeout(timer)
        resolve(true)
      })
    })

export const start = async (options: StartOptions): Promise<LocalServer> => {
  const started = performance.now()
  const libs = await ensureJars(options.cacheDir, options.log)
  const classpath = join(libs, "*")
  const home = join(options.runDir, "kafka")
  const dataDir = join(home, "data")
  const logFile = join(home, "server.log")
  mkdirSync(dataDir, { recursive: true })
  const [port, controllerPort] = (await freePorts(2)) as [number, number]
  const propertiesFile = join(home, "server.properties")
  const log4jFile = join(home, "log4j.properties")
  writeFileSync(propertiesFile, serverProperties({ port, controllerPort, dataDir }))
  writeFileSync(log4jFile, log4jProperties(logFile))
  const jvm = [`-Dlog4j.configuration=file:${log4jFile}`, `-Dkafka.logs.dir=${home}`, "-Djava.awt.headless=true"]

  // A kept data directory is formatted already (its meta.properties names the cluster): reused as it is.
  const formatted = options.keep === true && existsSync(join(dataDir, "meta.properties"))
  if (!formatted) await run(
    "formatting the KRaft storage",
    java(),
    [...jvm, "-Xmx256m", "-cp", classpath, "kafka.tools.StorageTool", "format", "-t", clusterId(), "-c", propertiesFile],
    join(home, "format.log")
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n(its files are in ${home})`)
  })

  const output = openSync(join(home, "stdout.log"), "a")
  const child = spawn(java(), [...jvm, heap, "-XX:+UseG1GC", "-cp", classpath, "kafka.Kafka", propertiesFile], {
    stdio: ["ignore", output, output]
  })
  closeSync(output)
  // If this process dies without calling stop (a crashed test run), the broker must not outlive it.
  const killOnExit = () => child.kill("SIGKILL")
  process.once("exit", killOnExit)
  const spawnError = new Promise<never>((_, reject) =>
    child.once("error", (error) => reject(new Error(`cannot run ${java()}: ${error.message}`)))
  )

  const broker = `127.0.0.1:${port}`
  const halt = async () => {
    process.removeListener("exit", killOnExit)
    if (child.pid === undefined || (await exited(child, 0))) return
    child.kill("SIGTERM")
    if (await exited(child, stopTimeoutMs)) return
    options.log(`kafka: ${broker} (pid ${child.pid}) did not stop within ${stopTimeoutMs / 1000} s; killing it`)
    child.kill("SIGKILL")
    await exited(child, stopTimeoutMs)
  }
  const stop = async () => {
    await halt()
    if (options.keep === true) return
    rmSync(home, { recursive: true, force: true })
    // The run directory may be shared with other local servers: it goes only once nothing else is left in it.
    if (existsSync(options.runDir) && readdirSync(options.runDir).length === 0) rmSync(options.runDir, { recursive: true })
  }

  try {
    await Promise.race([waitUntilReady(broker, child, logFile), spawnError])
  } catch (error) {
    // Stopped, but its files stay for a look at what went wrong.
    await halt()
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n(its files are in ${home})`)
  }
  options.log(`kafka: ${kafkaVersion} on ${broker} (pid ${child.pid}) ready in ${Math.round(performance.now() - started)} ms`)
  return { env: { KAFKA_BROKERS: broker, KAFKA_PARTITIONS: String(partitions) }, stop }
}


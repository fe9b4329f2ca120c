// The auditor's view of the event log: GET /events (filters, paging, NDJSON export, who may ask) on a standalone
// runtime after a real flow (register, login, refresh, upload), and `synth events tail` / `synth events export`
// (node bin/synth.mjs) against the same server.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSynth } from "../support/cli.ts"
import { bearer, goodPassword, http, type RawResponse, uniqueEmail } from "../support/http.ts"
import { childEnv, repoRoot, type RunningServer, startServer } from "../support/server.ts"
import { createAccount, multipart, realDataset } from "../support/upload.ts"

interface AuditEvent {
  readonly position: number
  readonly event_id: string
  readonly type: string
  readonly version: number
  readonly aggregate_id: string
  readonly actor: string
  readonly occurred_at: string
  readonly correlation_id: string
  readonly causation_id: string | null
  readonly payload: Record<string, unknown>
  readonly integrity: unknown
  readonly topic: string
  readonly partition: number
  readonly offset: number
}

const auditorEmail = uniqueEmail("auditor")
const credentialVariables = ["SYNTH_URL", "SYNTH_TOKEN", "SYNTH_EMAIL", "SYNTH_PASSWORD"]

let server: RunningServer
let workDir: string
let auditorToken: string
let userToken: string
let userId: string
let auditorId: string
const tails: Array<ChildProcess> = []

const logIn = async (email: string) => {
  const login = await http(`${server.baseUrl}/auth/login`, { body: { email, password: goodPassword } })
  expect(login.status, login.text).toBe(200)
  return login.json as { readonly access_token: string; readonly refresh_token: string }
}

const start = () =>
  startServer({
    runtime: "node",
    env: {
      DATA_DIR: join(workDir, "data"),
      AUDITOR_EMAILS: `someone-else@example.com,${auditorEmail.toUpperCase()}`,
      AUTH_RATE_LIMIT_PER_MINUTE: "10000"
    },
    readyTimeoutMs: 150_000
  })

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "synth-e2e-audit-"))
  server = await start()
  const registered = await http(`${server.baseUrl}/auth/register`, { body: { email: auditorEmail, password: goodPassword } })
  expect(registered.status, registered.text).toBe(201)
  auditorToken = (await logIn(auditorEmail)).access_token
  auditorId = ((await http(`${server.baseUrl}/auth/me`, { headers: bearer(auditorToken) })).json as { readonly id: string }).id
  userToken = await createAccount(server.baseUrl, "audited")
  const me = await http(`${server.baseUrl}/auth/me`, { headers: bearer(userToken) })
  userId = (me.json as { readonly id: string }).id
  const form = multipart([{ name: "file", filename: "penguins.csv", contentType: "text/csv", content: realDataset("penguins") }])
  const upload = await http(`${server.baseUrl}/datasets/upload`, {
    method: "POST",
    headers: { ...bearer(userToken), "content-type": form.contentType },
    body: form.body,
    timeoutMs: 120_000
  })
  expect(upload.status, upload.text).toBe(201)
}, 240_000)

afterAll(async () => {
  // A tail whose test failed before stopping it must not outlive the file.
  for (const child of tails) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  await server?.stop("SIGTERM", 60_000)
  if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
}, 90_000)

const getEvents = (query: string, headers: Record<string, string> = bearer(auditorToken)) =>
  http(`${server.baseUrl}/events${query}`, { headers })

const eventsOf = (response: RawResponse): ReadonlyArray<AuditEvent> => {
  expect(response.status, response.text).toBe(200)
  return response.json as ReadonlyArray<AuditEvent>
}

/** Every event matching `query`, walking the Link headers from the first page. */
const walk = async (query: string) => {
  const pages: Array<ReadonlyArray<AuditEvent>> = []
  let next: string | undefined = `/events${query}`
  while (next !== undefined) {
    const response = await http(`${server.baseUrl}${next}`, { headers: bearer(auditorToken) })
    pages.push(eventsOf(response))
    next = /^<([^>]+)>; rel="next"$/.exec(response.header("link") ?? "")?.[1]
    expect(pages.length).toBeLessThan(1000)
  }
  return pages
}

const all = async () => eventsOf(await getEvents("?limit=500"))

const parseLines = (text: string) => text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as AuditEvent)

const expectProblem = (response: RawResponse, status: number, code: string) => {
  expect(response.status, response.text).toBe(status)
  expect(response.header("content-type")).toMatch(/^application\/problem\+json/)
  expect(response.json).toMatchObject({ status, code, detail: expect.any(String) })
}

describe("GET /events", () => {
  it("shows an auditor the flow's events in feed order with their envelopes, credentials redacted", async () => {
    const events = await all()
    const types = events.map((event) => event.type)
    expect(types).toEqual(expect.arrayContaining(["user.registered", "user.logged-in", "dataset.uploaded"]))
    const positions = events.map((event) => event.position)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
    expect(new Set(events.map((event) => event.event_id)).size).toBe(events.length)
    const registration = events.find((event) => event.type === "user.registered" && event.aggregate_id === userId)
    expect(registration).toMatchObject({
      version: 2,
      actor: expect.stringMatching(/^(user:|service:|anonymous)/),
      topic: "synth.user",
      partition: expect.any(Number),
      offset: expect.any(Number),
      correlation_id: expect.any(String)
    })
    // The envelope's integrity seal, when the log sealed it, is passed on as it came (read-model tests check its value).
    expect(registration).toHaveProperty("integrity")
    expect(registration!.payload["passwordHash"]).toBe("[redacted]")
    expect(JSON.stringify(events)).not.toContain("$argon2")
  })

  it("narrows by aggregate id, by type (repeated or a comma list), by actor and by time range", async () => {
    const events = await all()

    const ofUser = eventsOf(await getEvents(`?aggregate_id=${userId}`))
    expect(ofUser.map((event) => event.event_id)).toEqual(
      events.filter((event) => event.aggregate_id === userId).map((event) => event.event_id)
    )
    expect(ofUser.map((event) => event.type)).toEqual(expect.arrayContaining(["user.registered", "user.logged-in"]))

    const wanted = ["user.registered", "dataset.uploaded"]
    const expected = events.filter((event) => wanted.includes(event.type)).map((event) => event.event_id)
    expect(expected.length).toBeGreaterThanOrEqual(3)
    for (const query of ["?type=user.registered,dataset.uploaded", "?type=user.registered&type=dataset.uploaded"]) {
      expect(eventsOf(await getEvents(query)).map((event) => event.event_id)).toEqual(expected)
    }

    const actor = `user:${userId}`
    const byUser = eventsOf(await getEvents(`?actor=${encodeURIComponent(actor)}`))
    expect(byUser.length).toBeGreaterThan(0)
    expect(byUser.map((event) => event.event_id)).toEqual(events.filter((event) => event.actor === actor).map((event) => event.event_id))

    const middle = events[Math.floor(events.length / 2)]!.occurred_at
    const since = eventsOf(await getEvents(`?since=${middle}`))
    const until = eventsOf(await getEvents(`?until=${middle}`))
    expect(since.length).toBeGreaterThan(0)
    expect(until.length).toBeGreaterThan(0)
    expect(since.every((event) => event.occurred_at >= middle)).toBe(true)
    expect(until.every((event) => event.occurred_at < middle)).toBe(true)
    expect(since.length + until.length).toBe(events.length)
    // A date alone is midnight UTC; an offset is honoured.
    const day = middle.slice(0, 10)
    const nextDay = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10)
    expect(eventsOf(await getEvents(`?since=${day}&until=${nextDay}`)).length).toBe(
      events.filter((event) => event.occurred_at >= `${day}T00:00:00.000Z` && event.occurred_at < `${nextDay}T00:00:00.000Z`).length
    )
    const shifted = new Date(Date.parse(middle) + 2 * 3_600_000).toISOString().slice(0, 19)
    expect(eventsOf(await getEvents(`?since=${encodeURIComponent(`${shifted}+02:00`)}`)).map((event) => event.event_id))
      .toEqual(events.filter((event) => event.occurred_at >= middle.slice(0, 19)).map((event) => event.event_id))

    const [first, , third] = events
    const range = eventsOf(await getEvents(`?from_position=${first!.position}&to_position=${third!.position}`))
    expect(range.map((event) => event.position)).toEqual(events.slice(0, 3).map((event) => event.position))
  })

  it("pages through every event exactly once, keeping the filters in the Link header", async () => {
    const events = await all()
    const pages = await walk("?limit=2")
    expect(pages.length).toBe(Math.ceil(events.length / 2))
    expect(pages.flat().map((event) => event.event_id)).toEqual(events.map((event) => event.event_id))

    const typed = await walk("?limit=1&type=user.logged-in")
    expect(typed.length).toBeGreaterThanOrEqual(2)
    expect(typed.flat().map((event) => event.event_id)).toEqual(
      events.filter((event) => event.type === "user.logged-in").map((event) => event.event_id)
    )
  })

  it("exports every matching event as NDJSON, equal to the pages' concatenation", async () => {
    const pages = (await walk("?limit=3")).flat()
    const accepted = await getEvents("", { ...bearer(auditorToken), accept: "application/x-ndjson" })
    expect(accepted.status, accepted.text).toBe(200)
    expect(accepted.header("content-type")).toMatch(/^application\/x-ndjson/)
    expect(accepted.text.endsWith("\n")).toBe(true)
    expect(parseLines(accepted.text)).toEqual(pages)

    const asked = await getEvents("?format=ndjson&type=dataset.uploaded")
    expect(parseLines(asked.text)).toEqual(pages.filter((event) => event.type === "dataset.uploaded"))
  })

  it("answers 401 without a token and 403 forbidden to a user who is not an auditor", async () => {
    const anonymous = await getEvents("", {})
    expectProblem(anonymous, 401, "invalid_token")
    const user = await getEvents("", bearer(userToken))
    expectProblem(user, 403, "forbidden")
    expect((user.json as { readonly detail: string }).detail).toContain("AUDITOR_EMAILS")
    const export403 = await getEvents("?format=ndjson", bearer(userToken))
    expectProblem(export403, 403, "forbidden")
  })

  it("refuses bad query values in the one error shape, naming the field once", async () => {
    const cases = [
      ["since=yesterday", "since", /ISO 8601/],
      ["until=2026-13-45T00:00:00Z", "until", /ISO 8601/],
      ["limit=0", "limit", /between 1 and 500/],
      ["limit=501", "limit", /between 1 and 500/],
      ["from_position=-3", "from_position", /1 or more/],
      ["to_position=two", "to_position", /./],
      ["format=csv", "format", /./],
      ["cursor=not-ours", "cursor", /Link header/],
      ["since=2026-02-01&until=2026-01-31T23:59:59Z", "until", /not be before since/],
      ["from_position=5&to_position=4", "to_position", /not be below from_position/]
    ] as const
    for (const [query, field, message] of cases) {
      const response = await getEvents(`?${query}`)
      expectProblem(response, 422, "validation_failed")
      const errors = (response.json as { readonly errors: ReadonlyArray<{ readonly field: string; readonly message: string }> }).errors
      expect(errors, query).toEqual([{ field, message: expect.stringMatching(message) }])
    }
  })
})

/** Starts `synth events tail` and collects its stdout; `stop` sends a signal and resolves with the exit. */
const startTail = (args: ReadonlyArray<string>) => {
  const child: ChildProcess = spawn(process.execPath, ["bin/synth.mjs", "events", "tail", ...args], {
    cwd: repoRoot,
    env: childEnv({ NO_COLOR: "1" }, { unsetEnv: credentialVariables }),
    stdio: ["ignore", "pipe", "pipe"]
  })
  tails.push(child)
  let stdout = ""
  let stderr = ""
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk))
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)))
  const waitFor = async (done: (stdout: string) => boolean, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs
    while (!done(stdout)) {
      if (Date.now() > deadline) throw new Error(`tail printed no such output in ${timeoutMs} ms:\n${stdout}\n${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const stop = async (signal: NodeJS.Signals) => {
    child.kill(signal)
    return { code: await exited, stdout, stderr }
  }
  return { waitFor, stop, output: () => stdout + stderr }
}

describe("synth events tail", () => {
  it("follows the feed from the present: an event appended after it started appears as a JSON line; SIGINT ends it with 0", async () => {
    const tail = startTail(["--url", server.baseUrl, "--email", auditorEmail, "--password", goodPassword, "--json", "--interval", "0.2", "--type", "user.logged-in"])
    // It starts at the moment it started, so its own login is the first event it shows: then it is following.
    await tail.waitFor((stdout) => stdout.includes(auditorId), 30_000)
    const email = uniqueEmail("tailed")
    await http(`${server.baseUrl}/auth/register`, { body: { email, password: goodPassword } })
    await logIn(email)
    const me = await http(`${server.baseUrl}/auth/me`, { headers: bearer((await logIn(email)).access_token) })
    const tailedId = (me.json as { readonly id: string }).id
    // Complete lines only (the last piece may still be arriving); each line names the user several times.
    await tail.waitFor((stdout) => stdout.split("\n").slice(0, -1).filter((line) => line.includes(tailedId)).length >= 2, 30_000)
    const { code, stdout } = await tail.stop("SIGINT")
    expect(code).toBe(0)
    const lines = parseLines(stdout)
    expect(lines.length).toBeGreaterThanOrEqual(2)
    expect(lines.every((event) => event.type === "user.logged-in")).toBe(true)
    expect(lines.filter((event) => event.aggregate_id === tailedId).length).toBe(2)
    expect(lines.filter((event) => event.aggregate_id === auditorId).length).toBe(1)
    expect(lines.some((event) => event.aggregate_id === userId)).toBe(false)
  }, 60_000)

  it("prints one readable line per event from --from-position and ends on SIGTERM", async () => {
    const events = await all()
    const tail = startTail(["--url", server.baseUrl, "--token", auditorToken, "--from-position", String(events[0]!.position)])
    await tail.waitFor((stdout) => stdout.split("\n").length > events.length, 30_000)
    const { code, stdout } = await tail.stop("SIGTERM")
    expect(code).toBe(0)
    const first = stdout.split("\n")[0]!
    expect(first).toBe(`${events[0]!.occurred_at}  #${events[0]!.position}  ${events[0]!.type}  ${events[0]!.aggregate_id}  ${events[0]!.actor}`)
  }, 60_000)

  it("refuses a user who is not an auditor with the server's detail and exit status 1", async () => {
    const result = await runSynth(["events", "tail", "--url", server.baseUrl, "--token", userToken], { unsetEnv: credentialVariables })
    expect(result.code, result.output).toBe(1)
    expect(result.stderr).toMatch(/synth: GET \/events is for auditors only/)
  }, 60_000)
})

describe("synth events export", () => {
  it("writes every event as NDJSON to --output, equal to the API's export, with a summary line", async () => {
    const file = join(workDir, "all.ndjson")
    const result = await runSynth(["events", "export", "--url", server.baseUrl, "--token", auditorToken, "--output", file], {
      unsetEnv: credentialVariables
    })
    expect(result.code, result.output).toBe(0)
    const content = await readFile(file, "utf8")
    const exported = parseLines(content)
    const events = await all()
    expect(exported.length).toBeGreaterThanOrEqual(5)
    expect(exported).toEqual(events.slice(0, exported.length))
    expect(result.stdout).toBe("")
    expect(result.stderr).toMatch(new RegExp(`exported ${exported.length} events \\(${Buffer.byteLength(content)} bytes\\) to ${file}`))
  }, 60_000)

  it("exports a time range and a position range to stdout", async () => {
    const events = await all()
    const since = events[1]!.occurred_at
    const until = events[events.length - 1]!.occurred_at
    const timed = await runSynth(["events", "export", "--url", server.baseUrl, "--token", auditorToken, "--since", since, "--until", until], {
      unsetEnv: credentialVariables
    })
    expect(timed.code, timed.output).toBe(0)
    expect(parseLines(timed.stdout)).toEqual(events.filter((event) => event.occurred_at >= since && event.occurred_at < until))
    expect(timed.stderr).toMatch(/exported \d+ events \(\d+ bytes\) to stdout/)

    const positioned = await runSynth(
      ["events", "export", "--url", server.baseUrl, "--token", auditorToken, "--from-position", String(events[2]!.position), "--to-position", String(events[4]!.position)],
      { unsetEnv: credentialVariables }
    )
    expect(positioned.code, positioned.output).toBe(0)
    expect(parseLines(positioned.stdout)).toEqual(events.slice(2, 5))
  }, 60_000)

  it("says on one line what was wrong with a bad time (exit 1)", async () => {
    const result = await runSynth(["events", "export", "--url", server.baseUrl, "--token", auditorToken, "--since", "last week"], {
      unsetEnv: credentialVariables
    })
    expect(result.code, result.output).toBe(1)
    expect(result.stderr).toMatch(/since: must be an ISO 8601 time/)
  }, 60_000)
})

describe("synth replay", () => {
  it("rebuilds the audit feed from the log: the same events, each aggregate in order, at positions after the old ones", async () => {
    const before = await all()
    await server.stop("SIGTERM", 60_000)
    const replayed = await runSynth(["replay", "--projection", "audit"], { env: { DATA_DIR: join(workDir, "data") }, timeoutMs: 180_000 })
    expect(replayed.code, replayed.output).toBe(0)
    server = await start()
    const after = await all()
    const withoutPosition = (events: ReadonlyArray<AuditEvent>) =>
      events.map(({ position: _position, ...event }) => event).sort((a, b) => a.event_id.localeCompare(b.event_id))
    expect(withoutPosition(after)).toEqual(withoutPosition(before))
    const lastBefore = Math.max(...before.map((event) => event.position))
    expect(after.every((event) => event.position > lastBefore)).toBe(true)
    const aggregateOrder = (events: ReadonlyArray<AuditEvent>, aggregateId: string) =>
      events.filter((event) => event.aggregate_id === aggregateId).map((event) => event.event_id)
    for (const aggregateId of new Set(before.map((event) => event.aggregate_id))) {
      expect(aggregateOrder(after, aggregateId)).toEqual(aggregateOrder(before, aggregateId))
    }
  }, 240_000)
})

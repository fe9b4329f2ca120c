// Black-box end-to-end tests of dataset profiling against the standalone runtime started with Node: the four real
// datasets profiled (spec fields and types, penguins' numbers against the pandas reference), GET before POST,
// isolation between users, re-posting, has_profile in the list, masking of identifier-like and personal columns,
// deletion.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Contract from "@synth/contracts"
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expectProblem, type ListItem, upload, uploaded } from "../support/datasets.ts"
import { bearer, http, type RawResponse } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

type Profile = typeof Contract.Profile.Encoded

let server: RunningServer
let baseUrl: string

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: { AUTH_RATE_LIMIT_PER_MINUTE: "10000", RATE_LIMIT_PER_MINUTE: "10000", READ_YOUR_WRITES_TIMEOUT: "60 seconds" },
    readyTimeoutMs: 150_000
  })
  baseUrl = server.baseUrl
}, 200_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
}, 90_000)

const postProfile = (token: string, id: string) =>
  http(`${baseUrl}/datasets/${id}/profile`, { method: "POST", headers: bearer(token), timeoutMs: 120_000 })

const getProfile = (token: string, id: string) => http(`${baseUrl}/datasets/${id}/profile`, { headers: bearer(token) })

/** The response's profile, after checking the status and decoding it with the contract's schema. */
const profiled = (response: RawResponse): Profile => {
  expect(response.status, response.text.slice(0, 500)).toBe(200)
  expect(response.header("content-type")).toMatch(/^application\/json/)
  return Schema.encodeSync(Contract.Profile)(Schema.decodeUnknownSync(Contract.Profile)(response.json))
}

const uploadCsv = async (token: string, filename: string, content: string | Buffer) =>
  uploaded(await upload(baseUrl, token, filename, content)).id

const columnOf = (profile: Profile, name: string) => {
  const column = profile.columns.find((candidate) => candidate.name === name)
  expect(column, name).toBeDefined()
  return column!
}

const closeTo = (actual: number | null | undefined, expected: number) => {
  expect(actual).not.toBeNull()
  expect(Math.abs(actual! - expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)))
}

describe("profiling the real datasets", () => {
  let token: string
  beforeAll(async () => {
    token = await createAccount(baseUrl, "profile-real")
  })

  for (const name of ["penguins", "credit_data", "telco_churn", "diamonds"] as const) {
    it(`profiles ${name} with every field of the spec`, async () => {
      const id = await uploadCsv(token, `${name}.csv`, realDataset(name))
      const profile = profiled(await postProfile(token, id))
      expect(profile.dataset_id).toBe(id)
      expect(profile.column_count).toBe(profile.columns.length)
      expect(profile.row_count).toBeGreaterThan(0)
      expect(profile.data_quality_score).toBeGreaterThanOrEqual(0)
      expect(profile.data_quality_score).toBeLessThanOrEqual(1)
      expect(["Excellent", "Good", "Fair", "Poor"]).toContain(profile.data_quality.level)
      for (const component of ["completeness", "consistency", "accuracy", "uniqueness"] as const) {
        expect(profile.data_quality.components[component].description.length).toBeGreaterThan(10)
      }
      for (const column of profile.columns) {
        expect(typeof column.nullable).toBe("boolean")
        expect(column.nullable).toBe(column.missing_count > 0)
        if (column.type === "integer" || column.type === "float") {
          for (const field of ["min", "max", "mean", "std"] as const) expect(typeof column[field]).toBe("number")
        }
        if (column.type === "string" || column.type === "boolean") {
          expect(column.frequencies.length).toBe(column.most_frequent.length)
        }
      }
      const numeric = profile.columns.filter((column) => column.type === "integer" || column.type === "float")
      expect(Object.keys(profile.correlations).length).toBe((numeric.length * (numeric.length - 1)) / 2)
      // GET answers the stored profile, byte for byte what POST answered.
      expect(profiled(await getProfile(token, id))).toEqual(profile)
    }, 180_000)
  }

  it("agrees with the pandas reference on penguins", async () => {
    const reference = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../libs/stats/test/fixtures/penguins.reference.json"), "utf8")
    ) as {
      row_count: number
      columns: Record<string, { mean?: number; std?: number; min?: number; max?: number; missing_count: number; unique_count: number }>
      correlations: Record<string, number>
    }
    const id = await uploadCsv(token, "penguins.csv", realDataset("penguins"))
    const profile = profiled(await postProfile(token, id))
    expect(profile.row_count).toBe(reference.row_count)
    const bill = columnOf(profile, "bill_length_mm")
    const expected = reference.columns.bill_length_mm!
    if (bill.type !== "float") throw new Error(`bill_length_mm is ${bill.type}`)
    closeTo(bill.mean, expected.mean!)
    closeTo(bill.std, expected.std!)
    closeTo(bill.min, expected.min!)
    closeTo(bill.max, expected.max!)
    expect(bill.missing_count).toBe(expected.missing_count)
    expect(bill.unique_count).toBe(expected.unique_count)
    for (const [pair, value] of Object.entries(reference.correlations)) closeTo(profile.correlations[pair], value)
    const species = columnOf(profile, "species")
    expect(species).toMatchObject({ type: "string", most_frequent: ["Adelie", "Gentoo", "Chinstrap"], frequencies: [152, 124, 68] })
  }, 180_000)
})

describe("profile lifecycle", () => {
  let token: string
  beforeAll(async () => {
    token = await createAccount(baseUrl, "profile-life")
  })

  it("answers GET before POST with 404 and how to get one, and flags has_profile once profiled", async () => {
    const id = await uploadCsv(token, "penguins.csv", realDataset("penguins"))
    const before = expectProblem(await getProfile(token, id), 404, "not_found")
    expect(before.detail).toContain(`run POST /datasets/${id}/profile first`)
    const listedBefore = (await http(`${baseUrl}/datasets/?limit=500`, { headers: bearer(token) })).json as ReadonlyArray<ListItem>
    expect(listedBefore.find((item) => item.id === id)?.has_profile).toBe(false)

    const first = profiled(await postProfile(token, id))
    const listed = (await http(`${baseUrl}/datasets/?limit=500`, { headers: bearer(token) })).json as ReadonlyArray<ListItem>
    expect(listed.find((item) => item.id === id)?.has_profile).toBe(true)

    // Re-posting replaces the stored profile (the same table gives the same profile) and keeps has_profile.
    const second = profiled(await postProfile(token, id))
    expect(second).toEqual(first)
    expect(profiled(await getProfile(token, id))).toEqual(second)
    const relisted = (await http(`${baseUrl}/datasets/?limit=500`, { headers: bearer(token) })).json as ReadonlyArray<ListItem>
    expect(relisted.find((item) => item.id === id)?.has_profile).toBe(true)
  }, 180_000)

  it("hides another user's dataset and its profile (404), and a deleted dataset's", async () => {
    const id = await uploadCsv(token, "penguins.csv", realDataset("penguins"))
    profiled(await postProfile(token, id))
    const stranger = await createAccount(baseUrl, "profile-stranger")
    expectProblem(await postProfile(stranger, id), 404, "not_found")
    expectProblem(await getProfile(stranger, id), 404, "not_found")

    const deleted = await http(`${baseUrl}/datasets/${id}`, { method: "DELETE", headers: bearer(token) })
    expect(deleted.status, deleted.text).toBe(204)
    expectProblem(await getProfile(token, id), 404, "not_found")
    expectProblem(await postProfile(token, id), 404, "not_found")
    expectProblem(await postProfile(token, "not-a-uuid"), 404, "not_found")
  }, 180_000)

  it("masks most_frequent of identifier-like and personal-data columns, keeping their counts", async () => {
    const rows = Array.from({ length: 40 }, (_, index) =>
      `CUST-${String(1000 + index)},person${index % 30}@example.com,${index % 2 === 0 ? "red" : "blue"},${index * 1.5}`
    )
    const id = await uploadCsv(token, "customers.csv", ["customer_code,email,colour,spend", ...rows].join("\n"))
    const response = await postProfile(token, id)
    expect(response.text).not.toMatch(/example\.com|CUST-/)
    const profile = profiled(response)
    const code = columnOf(profile, "customer_code")
    expect(code).toMatchObject({ type: "string", likely_identifier: true, most_frequent_masked: true })
    if (code.type === "string") expect(code.most_frequent.every((value) => value === "C***9" || /^C\*\*\*\d$/.test(value))).toBe(true)
    const email = columnOf(profile, "email")
    expect(email).toMatchObject({ type: "string", most_frequent_masked: true })
    if (email.type === "string") expect(email.frequencies.slice(0, 3)).toEqual([2, 2, 2])
    expect(columnOf(profile, "colour")).toMatchObject({ most_frequent: ["blue", "red"], frequencies: [20, 20], most_frequent_masked: false })
    expect((await getProfile(token, id)).text).not.toMatch(/example\.com|CUST-/)
  }, 180_000)
})

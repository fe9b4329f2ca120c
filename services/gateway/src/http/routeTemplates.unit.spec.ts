import { describe, expect, it } from "@effect/vitest"
import { routeTemplateOf, unmatchedRoute } from "./routeTemplates.ts"

describe("routeTemplateOf", () => {
  it("names the contract's template, never the ids or the query string", () => {
    const id = "0193b7e4-1f2a-7c3d-8e4f-5a6b7c8d9e0f"
    expect(routeTemplateOf("GET", `/datasets/${id}`)).toBe("/datasets/:dataset_id")
    expect(routeTemplateOf("GET", `/datasets/${id}/download?token=secret`)).toBe("/datasets/:dataset_id/download")
    expect(routeTemplateOf("DELETE", `/datasets/${id}`)).toBe("/datasets/:dataset_id")
    expect(routeTemplateOf("POST", `/generators/${id}/cancel`)).toBe("/generators/:generator_id/cancel")
  })

  it("prefers a literal segment over a parameter", () => {
    expect(routeTemplateOf("POST", "/datasets/upload")).toBe("/datasets/upload")
    expect(routeTemplateOf("POST", "/generators/dp/validate-config")).toBe("/generators/dp/validate-config")
  })

  it("matches with and without a trailing slash, and knows the routes beside the API", () => {
    expect(routeTemplateOf("GET", "/datasets")).toBe("/datasets/")
    expect(routeTemplateOf("GET", "/datasets/?limit=5")).toBe("/datasets/")
    expect(routeTemplateOf("GET", "/health")).toBe("/health")
    expect(routeTemplateOf("GET", "/metrics")).toBe("/metrics")
    expect(routeTemplateOf("GET", "/openapi.json")).toBe("/openapi.json")
    expect(routeTemplateOf("OPTIONS", "/auth/login")).toBe("/auth/login")
  })

  it("labels unknown paths as one series", () => {
    expect(routeTemplateOf("GET", "/wp-admin/install.php")).toBe(unmatchedRoute)
    expect(routeTemplateOf("GET", "/datasets/a/b/c/d")).toBe(unmatchedRoute)
  })
})

import { HttpApi } from "effect/http-api"
import { SynthApi } from "@synth/contracts"

/** The label of a request that matches no route: unknown paths must not each become a time series of their own. */
export const unmatchedRoute = "unmatched"

interface RouteTemplate {
  readonly method: string
  readonly template: string
  readonly pattern: RegExp
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const compile = (method: string, template: string): RouteTemplate => ({
  method,
  template,
  pattern: new RegExp(
    `^${
      template
        .replace(/\/$/, "")
        .split("/")
        .map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)))
        .join("/")
    }/?$`
  )
})

/** The API's endpoints, as the contract declares them, and the routes the gateway serves beside the API. */
const templates: ReadonlyArray<RouteTemplate> = (() => {
  const found: Array<RouteTemplate> = [
    compile("GET", "/docs"),
    compile("GET", "/openapi.json"),
    compile("GET", "/metrics")
  ]
  HttpApi.reflect(SynthApi, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => void found.push(compile(endpoint.method, endpoint.path))
  })
  // A literal segment wins over a parameter in the same place (`/datasets/upload` before `/datasets/:id`).
  const parameters = (route: RouteTemplate) => route.template.split(":").length
  return found.sort((a, b) => parameters(a) - parameters(b))
})()

/**
 * The route template of a request (`/datasets/:datasetId`), for metric labels and access logs: never the raw path,
 * which carries ids (one time series per dataset) and could carry whatever a client sends. The query string is
 * never part of it. A preflight (OPTIONS) is labelled with the template its path matches for any method.
 */
export const routeTemplateOf = (method: string, url: string): string => {
  const path = url.split("?")[0] ?? ""
  const sameMethod = templates.find((route) => route.method === method && route.pattern.test(path))
  if (sameMethod !== undefined) return sameMethod.template
  return templates.find((route) => route.pattern.test(path))?.template ?? unmatchedRoute
}

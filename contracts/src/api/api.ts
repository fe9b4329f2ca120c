import { HttpApi, OpenApi } from "effect/http-api"
import { ProblemDetails } from "../errors.ts"
import { RequestValidation } from "../security.ts"
import { AccountGroup, AuthGroup } from "./auth.ts"
import { ChatGroup } from "./chat.ts"
import { DatasetsGroup } from "./datasets.ts"
import { EvaluationsGroup } from "./evaluations.ts"
import { EventsGroup } from "./events.ts"
import { GeneratorsGroup } from "./generators.ts"
import { HealthGroup } from "./health.ts"
import { documentRequestValidation } from "./requestValidationDocs.ts"

export const apiVersion = "0.1.0"

const description = `Synthetic tabular data: upload real data, profile it, scan it for personal data, train generators and
download synthetic data with evaluations.

Authentication: \`Authorization: Bearer <access token>\` on every endpoint except /health, /ready, /docs, /openapi.json,
/auth/register, /auth/login and /auth/refresh (which takes the refresh token as its bearer token).

Errors: every error response is RFC 9457 problem details (\`application/problem+json\`) with the members
type, title, status, detail, code and request_id (plus errors[] for validation failures); see the ProblemDetails
schema. Every response carries \`X-Request-Id\`; authenticated responses carry RateLimit-Limit,
RateLimit-Remaining and RateLimit-Reset, and 429 responses Retry-After.`

export class SynthApi extends HttpApi.make("synth")
  .add(HealthGroup)
  .add(AuthGroup)
  .add(AccountGroup)
  .add(DatasetsGroup)
  .add(GeneratorsGroup)
  .add(EvaluationsGroup)
  .add(ChatGroup)
  .add(EventsGroup)
  .middleware(RequestValidation)
  .annotate(OpenApi.Title, "Synthetic Data Service")
  .annotate(OpenApi.Version, apiVersion)
  .annotate(OpenApi.Description, description)
  .annotate(HttpApi.AdditionalSchemas, [ProblemDetails])
  .annotate(OpenApi.Transform, documentRequestValidation) {}

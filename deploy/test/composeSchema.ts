/**
 * The part of the Compose Specification (compose-spec/compose-spec, schema/compose-spec.json) that deploy/compose.yaml
 * uses, as a JSON schema. Written here because the official schema is in no installed package and tests run
 * offline; like the official one it refuses unknown keys, so a misspelt or unsupported key fails.
 */
const duration = { type: "string", pattern: "^(\\d+(\\.\\d+)?(us|ms|s|m|h))+$" }
const stringOrList = { oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }
const extensions = { "^x-": {} }

const healthcheck = {
  type: "object",
  additionalProperties: false,
  patternProperties: extensions,
  properties: {
    disable: { type: "boolean" },
    test: stringOrList,
    interval: duration,
    timeout: duration,
    retries: { type: "integer", minimum: 0 },
    start_period: duration,
    start_interval: duration
  }
}

const service = {
  type: "object",
  additionalProperties: false,
  patternProperties: extensions,
  properties: {
    image: { type: "string" },
    build: {
      type: "object",
      additionalProperties: false,
      properties: { context: { type: "string" }, dockerfile: { type: "string" } },
      required: ["context"]
    },
    command: stringOrList,
    entrypoint: stringOrList,
    environment: {
      oneOf: [
        {
          type: "object",
          patternProperties: { "^[A-Za-z_][A-Za-z0-9_]*$": { type: ["string", "number", "boolean", "null"] } },
          additionalProperties: false
        },
        { type: "array", items: { type: "string" }, uniqueItems: true }
      ]
    },
    ports: { type: "array", items: { type: ["string", "number"] }, uniqueItems: true },
    volumes: { type: "array", items: { type: "string" }, uniqueItems: true },
    deploy: {
      type: "object",
      additionalProperties: false,
      properties: { replicas: { type: "integer", minimum: 0 } }
    },
    healthcheck,
    depends_on: {
      type: "object",
      additionalProperties: false,
      patternProperties: {
        "^[a-zA-Z0-9._-]+$": {
          type: "object",
          additionalProperties: false,
          properties: {
            condition: { enum: ["service_started", "service_healthy", "service_completed_successfully"] },
            required: { type: "boolean" },
            restart: { type: "boolean" }
          },
          required: ["condition"]
        }
      }
    },
    restart: { enum: ["no", "always", "on-failure", "unless-stopped"] },
    stop_grace_period: duration
  },
  required: ["image"]
}

export const composeSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  additionalProperties: false,
  patternProperties: extensions,
  required: ["services"],
  properties: {
    name: { type: "string", pattern: "^[a-z0-9][a-z0-9_-]*$" },
    services: {
      type: "object",
      additionalProperties: false,
      patternProperties: { "^[a-zA-Z0-9._-]+$": service }
    },
    volumes: {
      type: "object",
      additionalProperties: false,
      patternProperties: {
        "^[a-zA-Z0-9._-]+$": {
          type: ["object", "null"],
          additionalProperties: false,
          properties: { driver: { type: "string" }, external: { type: "boolean" }, name: { type: "string" } }
        }
      }
    }
  }
} as const

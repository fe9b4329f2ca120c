import { configDefaults, defineConfig } from "vitest/config"

const exclude = [...configDefaults.exclude, "**/.nx/**", "**/data/**", "**/.data/**", "**/.tmp/**", "test/bench/**"]

// Real Kafka, PostgreSQL and MinIO for the int and e2e projects, started unless KAFKA_BROKERS, DATABASE_URL and
// S3_ENDPOINT name them (test/support/infra.ts); unit tests never wait for them.
const withServers = { globalSetup: ["test/support/infra.ts"], setupFiles: ["test/support/infraEnv.ts"] }

// Projects run one after another (sequence.groupOrder), so PGlite-heavy integration files and the servers that
// e2e files start never compete with each other for the two cores.
export default defineConfig({
  test: {
    pool: "forks",
    maxWorkers: 2,
    passWithNoTests: true,
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["**/*.unit.spec.ts"],
          exclude,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: {
          name: "int",
          include: ["**/*.int.spec.ts"],
          ...withServers,
          exclude,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 }
        }
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.e2e.spec.ts"],
          ...withServers,
          exclude,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 }
        }
      }
    ]
  }
})

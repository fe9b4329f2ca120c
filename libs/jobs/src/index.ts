// @synth/jobs: the lifecycle rules of long-running jobs as deciders, one per job aggregate, so that every service
// handling a job (the gateway that takes its commands, the services that run and watch it) applies the same rules.
export * as GeneratorJob from "./generator.ts"

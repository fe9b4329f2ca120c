export { denotesPersonalData, maskValue, profileResource } from "./masking.ts"
export { Profiling, profilingActor } from "./Profiling.ts"
export { ProfilingLive, profilingGroup } from "./ProfilingLive.ts"

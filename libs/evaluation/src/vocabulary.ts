// What the gateway shows of stored evaluations (check titles, grouped recommendations, the report's policy), without
// the evaluation's code: it loads at start, and the metrics load in the evaluation jobs' threads.
export { type PrivacyCheckName, privacyCheckTitles } from "./privacy/shareVerdict.ts"
export { groupRecommendations } from "./recommendations/groupRecommendations.ts"
export { reportContentSecurityPolicy } from "./report/contentSecurityPolicy.ts"

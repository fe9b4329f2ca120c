export * from "./holdout.ts"
export * from "./keyedBloom.ts"
export * from "./roles/ColumnPlan.ts"
export * from "./fake/index.ts"

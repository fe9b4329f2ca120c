export {
  type ConstrainedArtifact,
  constrainedArtifact,
  constrainedFormat,
  constrainedModel,
  isConstrainedArtifact,
  type ReadConstrained,
  readConstrainedArtifact
} from "./constrainedModel.ts"
export { type ColumnFacts, type DatasetFacts, factsOfColumnTypes, factsOfProfile, factsOfTable, type ProfiledColumn } from "./datasetFacts.ts"
export {
  drawAccepted,
  type DrawOutcome,
  type DrawRequest,
  drawsPerRow,
  maximumBudget,
  minimumBudget,
  rejectionBudget,
  type RulesUnmet
} from "./drawAccepted.ts"
export type { RuleProblem } from "./parseConstraints.ts"
export { conditionTest, constraintBreaks, constraintTest, rowAcceptor, type RowAcceptor, type RuleFailures, uniqueKeyOf } from "./rowRules.ts"
export {
  type BoundValue,
  type Condition,
  type Constraint,
  constraintColumns,
  type ConstraintType,
  constraintTypes,
  describeCondition,
  describeConstraint
} from "./rules.ts"
export { steeringCategories } from "./steering.ts"
export { type ConstraintTransforms, fitConstraintTransforms, fixedCombinationGroups } from "./transform/constraintTransforms.ts"
export { type GenerationRules, noRules, type RulesValidation, validateRules, validateRulesOnTable } from "./validateRules.ts"
export { booleanOf, isNumericType, valueInColumnUnits } from "./values.ts"

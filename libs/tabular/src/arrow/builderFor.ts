import type { ColumnPlan } from "../infer/ColumnPlan.ts"
import type { ColumnBuilder } from "./ColumnBuilder.ts"
import { BoolBuilder, DateTimeBuilder, Float64Builder, Int32Builder } from "./numberBuilders.ts"
import { Utf8Builder } from "./Utf8Builder.ts"

export const builderFor = (plan: ColumnPlan, capacity: number): ColumnBuilder => {
  const name = plan.schema.name
  const conversion = plan.conversion
  switch (conversion.type) {
    case "boolean":
      return new BoolBuilder(name, capacity)
    case "integer":
      return conversion.storage === "int32"
        ? new Int32Builder(name, capacity, conversion.convention)
        : new Float64Builder(name, capacity, conversion.convention)
    case "float":
      return new Float64Builder(name, capacity, conversion.convention)
    case "date":
      return new DateTimeBuilder(name, capacity, conversion.dayFirst, false)
    case "datetime":
      return new DateTimeBuilder(name, capacity, conversion.dayFirst, true)
    case "string":
      return new Utf8Builder(name, capacity)
  }
}

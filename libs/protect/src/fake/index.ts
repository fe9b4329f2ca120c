export { fakeColumn } from "./fakeColumn.ts"
export { FakeGenerator, FakePlan } from "./FakePlan.ts"
export { type FakeColumnInput, type FakeSettings, fakeValueKey, planFakeColumn, realValuesKey } from "./planFakeColumn.ts"

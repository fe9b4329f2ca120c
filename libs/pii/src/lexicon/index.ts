export { firstNames, lastNames } from "./personNames.ts"
export { cityNames, isCityName } from "./placeNames.ts"
export {
  readValue,
  type ValueReading,
  valuesAreCities,
  valuesAreNames,
  valuesLookLikeNames,
  valuesLookLikePlaces,
  vocabularyProfile,
  type VocabularyProfile
} from "./valueVocabulary.ts"

/**
 * The shipped classifier's version (model/local-classifier.v2.json), for what names it without running it (the
 * privacy service's scan results): the classifier and its features load only when a scan needs them. A unit test
 * holds the two equal.
 */
export const localClassifierVersion = "local-classifier-v2"

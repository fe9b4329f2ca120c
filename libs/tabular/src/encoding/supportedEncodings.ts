/** Appended to every unsupported_encoding message, so the user knows what to do instead. */
export const supportedEncodingsAdvice =
  "Supported encodings are UTF-8 (preferred), UTF-16 with a byte order mark, and Windows-1252 / ISO-8859-1; " +
  "re-save the file as UTF-8 (\"CSV UTF-8\" in Excel) and upload it again."

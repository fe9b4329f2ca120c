/**
 * One CSV field, RFC 4180: quoted only when it must be, i.e. when it holds the delimiter, a quote or a line break,
 * or when it starts or ends with a space that a reader would otherwise trim.
 */
const needsQuotes = /[",\r\n]|^\s|\s$/

export const csvField = (text: string): string => (needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text)

import { DecodedText } from "../encoding/DecodedText.ts"
import { HEAD_BYTES, sniffEncoding } from "../encoding/sniffEncoding.ts"
import { TabularError } from "../TabularError.ts"
import { CsvParser } from "./csv/CsvParser.ts"
import { sniffDelimiter } from "./csv/sniffDelimiter.ts"
import { detectFormat } from "./detectFormat.ts"
import type { FieldBatch } from "./FieldBatch.ts"
import { JsonArrayParser } from "./json/JsonArrayParser.ts"
import { NdjsonParser } from "./json/NdjsonParser.ts"
import { readHead } from "./readHead.ts"
import { BATCH_ROWS, type RecordParser } from "./RecordParser.ts"
import type { Cell, FileFormat, RecordStream, TextEncoding } from "./RecordStream.ts"

/**
 * Opens an uploaded file as records, reading it once: the first HEAD_BYTES are sniffed for binary content and the
 * encoding, the text up to the header (CSV) or the first row (JSON) decides format, delimiter and columns, and
 * `batches` goes on from there with the same read. File-level problems (binary, encoding, empty file, bad header)
 * reject this promise; problems further down fail the iteration of `batches`, which can be iterated once (open the
 * file again for another pass).
 */
export const openRecords = async (bytes: () => AsyncIterable<Uint8Array>): Promise<RecordStream> => {
  const { chunks, head } = await readHead(bytes(), HEAD_BYTES)
  let encoding: TextEncoding
  try {
    encoding = sniffEncoding(head)
  } catch (error) {
    await chunks.return?.()
    throw error
  }
  const text = new DecodedText(chunks, encoding)
  try {
    return recordStream(await openParser(text), text)
  } catch (error) {
    await text.close()
    throw error
  }
}

interface OpenedParser {
  readonly format: FileFormat
  readonly delimiter: string | null
  readonly parser: RecordParser
  readonly ended: boolean
}

const openParser = async (text: DecodedText): Promise<OpenedParser> => {
  let start = ""
  let format: FileFormat | null = null
  let ended = false
  while (format === null || (format === "csv" && start.length < HEAD_BYTES && !ended)) {
    const piece = await text.read()
    if (piece === undefined) {
      ended = true
      if (format === null) throw new TabularError({ reason: "empty_file", message: "The file is empty or only whitespace." })
      break
    }
    start += piece
    format ??= detectFormat(start)
  }
  const delimiter = format === "csv" ? sniffDelimiter(start, ended) : null
  const parser = delimiter !== null ? new CsvParser(delimiter) : format === "json"
    ? new JsonArrayParser()
    : new NdjsonParser()
  parser.push(start)
  while (!parser.started && !ended) {
    const piece = await text.read()
    if (piece === undefined) ended = true
    else parser.push(piece)
  }
  if (ended) parser.end()
  return { format, delimiter, parser, ended }
}

const recordStream = ({ delimiter, ended, format, parser }: OpenedParser, text: DecodedText): RecordStream => {
  let iterated = false
  const readOnce = <Batch>(read: () => AsyncGenerator<Batch>): AsyncIterable<Batch> => ({
    [Symbol.asyncIterator]: () => {
      if (iterated) {
        throw new Error("RecordStream.batches (or fieldBatches) can be iterated once; call openRecords again for another pass")
      }
      iterated = true
      return read()
    }
  })
  return {
    format,
    get encoding(): TextEncoding {
      return text.encoding
    },
    delimiter,
    get columns() {
      return parser.columns
    },
    ...(parser.shapes === undefined ? {} : { get shapes() {
      return parser.shapes
    } }),
    batches: readOnce(() => readBatches(parser, text, ended)),
    ...(parser instanceof CsvParser ? { fieldBatches: readOnce(() => readFieldBatches(parser, text, ended)) } : {})
  }
}

async function* readBatches(
  parser: RecordParser,
  text: DecodedText,
  endedAlready: boolean
): AsyncGenerator<ReadonlyArray<ReadonlyArray<Cell>>> {
  for await (const _ of parseRest(parser, text, endedAlready, BATCH_ROWS)) yield parser.takeRows()
  while (parser.pendingRows > 0) {
    const rows = parser.takeRows()
    if (rows.length <= BATCH_ROWS) yield rows
    else for (let from = 0; from < rows.length; from += BATCH_ROWS) yield rows.slice(from, from + BATCH_ROWS)
  }
}

/** As they come, one batch per piece of text: field bounds hold on to no young objects, so batch size is free. */
async function* readFieldBatches(
  parser: CsvParser,
  text: DecodedText,
  endedAlready: boolean
): AsyncGenerator<FieldBatch> {
  for await (const _ of parseRest(parser, text, endedAlready, 1)) yield* handOut(parser)
  yield* handOut(parser)
}

/** The batches waiting, each recycled once the next is asked for: a batch is valid until then. */
function* handOut(parser: CsvParser): Generator<FieldBatch> {
  for (const batch of parser.takeFieldBatches()) {
    yield batch
    parser.recycle(batch)
  }
}

/**
 * Feeds the parser the rest of the text, pausing whenever at least `rows` rows wait to be taken, and ends it at the
 * end of the text. Closes the text when done or stopped.
 */
async function* parseRest(
  parser: RecordParser,
  text: DecodedText,
  endedAlready: boolean,
  rows: number
): AsyncGenerator<void> {
  try {
    if (endedAlready) return
    for (let piece = await text.read(); piece !== undefined; piece = await text.read()) {
      parser.push(piece)
      if (parser.pendingRows >= rows) yield
    }
    parser.end()
  } finally {
    await text.close()
  }
}

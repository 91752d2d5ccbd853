/**
 * CSV as RFC 4180 writes it (https://www.rfc-editor.org/rfc/rfc4180): fields separated by commas, records
 * ended by CRLF, and a field that holds a comma, a double quote, a CR or a LF enclosed in double quotes with
 * its double quotes doubled.
 *
 * Exports are opened in spreadsheets, which run a cell that starts with `=`, `+`, `-` or `@` (or a tab or CR
 * before one) as a formula. As the OWASP CSV Injection page recommends
 * (https://owasp.org/www-community/attacks/CSV_Injection), such a text cell is prefixed with a single quote,
 * so a spreadsheet shows it as text; the quote is part of the cell's value for any other reader. A cell that
 * is a plain number (`-100123`, a Telegram group's id; `+5`; `-1.5`) is not a formula and is kept as it is.
 *
 * Written here rather than taken from a library: the whole format is the two rules above.
 */

export type CsvValue = string | number | null;

/** Excel reads a CSV file as UTF-8 only when it starts with a byte order mark; other readers skip it. */
export const CSV_BYTE_ORDER_MARK = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: empty for null, a number as written, text guarded against formulas and quoted when needed. */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * A file's text as it is read: the header, then each page of records as the client takes the bytes in, so
 * memory stays at one page. The first page is read before anything is sent, so a failure then answers as
 * an error does; a later failure is reported and rethrown, which breaks the download off, so a short file
 * never looks complete.
 */
export async function csvChunks(
  header: readonly string[],
  pages: AsyncGenerator<CsvValue[][]>,
  failed: (error: unknown, written: number) => void,
): Promise<AsyncIterable<string>> {
  const first = await pages.next();
  async function* chunks() {
    let written = 0;
    try {
      yield CSV_BYTE_ORDER_MARK + csvRecord(header);
      for (let page = first; !page.done; page = await pages.next()) {
        yield page.value.map(csvRecord).join('');
        written += page.value.length;
      }
    } catch (error) {
      failed(error, written);
      throw error;
    } finally {
      await pages.return(undefined);
    }
  }
  return chunks();
}

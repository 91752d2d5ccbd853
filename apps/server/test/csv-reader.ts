/**
 * Reads CSV as RFC 4180 defines it (https://www.rfc-editor.org/rfc/rfc4180), independently of the writer in
 * src/lib/csv.ts, so the export tests check the file a spreadsheet or a script would read. Throws on text
 * that breaks the format (a quote inside an unquoted field, text after a closing quote, a quoted field
 * left open, a lone CR or LF between records).
 */
const UNQUOTED = /[^,\r\n]*/y;

export function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let at = 0;
  while (at < text.length) {
    let field = '';
    if (text[at] === '"') {
      at += 1;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote < 0) throw new Error(`A quoted field is never closed (from offset ${at})`);
        field += text.slice(at, quote);
        at = quote + 1;
        if (text[at] !== '"') break;
        field += '"';
        at += 1;
      }
    } else {
      UNQUOTED.lastIndex = at;
      field = UNQUOTED.exec(text)![0];
      if (field.includes('"')) throw new Error(`A quote inside an unquoted field at offset ${at}`);
      at += field.length;
    }
    record.push(field);
    if (text[at] === ',') {
      at += 1;
    } else if (text.startsWith('\r\n', at)) {
      records.push(record);
      record = [];
      at += 2;
    } else if (at < text.length) {
      throw new Error(`Expected a comma or CRLF at offset ${at}`);
    }
  }
  if (record.length > 0) throw new Error('The last record does not end with CRLF');
  return records;
}

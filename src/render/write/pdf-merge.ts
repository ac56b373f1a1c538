// One PDF of many that writePdf wrote, in order, as a stream: each source is taken whole once, its
// objects renumbered past those of the sources before it and passed on (their streams untouched,
// so nothing is decompressed or redrawn), and only the new numbers' offsets are kept. A thousand
// letters merge at the speed of reading them, in the memory of one; a general PDF library holds
// the whole merged document (docs/performance.md). It reads the writer's own layout (one xref
// table, objects 1 to 3 the catalog, the page tree and the information) and refuses anything else.
import { pdfString } from './pdf-string.ts';

export interface MergeOptions {
  /** The merged document's title and dates (its information dictionary). */
  title: string;
  createdAt: string;
}

const latin1 = (b: Buffer, start: number, end?: number) => b.toString('latin1', start, end);
const HEADER = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
/** Objects 1 to 3 of every writer's PDF (catalog, pages, information): the merge writes its own. */
const OWN = 3;

interface Source {
  bytes: Buffer;
  /** Object number to its offset; 0 where absent. */
  offsets: number[];
  /** Where the xref table starts: the end of the last object. */
  xref: number;
  /** The page objects in page order. */
  kids: number[];
}

/** A source that is not a PDF of the writer's (damaged, or written by something else). */
export class MergeError extends Error {
  override name = 'MergeError';
}

function refused(what: string): never {
  throw new MergeError(`a document to merge is not one this service wrote: ${what}`);
}

function read(bytes: Buffer): Source {
  if (latin1(bytes, 0, 5) !== '%PDF-') refused('no PDF header');
  const tail = latin1(bytes, Math.max(0, bytes.length - 64));
  const at = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!at) refused('no startxref');
  const xref = Number(at[1]);
  const table = /^xref\n0 (\d+)\n/.exec(latin1(bytes, xref, xref + 32));
  if (!table) refused('no xref table where startxref points');
  const count = Number(table[1]);
  const first = xref + table[0].length;
  const entries = latin1(bytes, first, first + count * 20);
  const offsets: number[] = [];
  for (let n = 0; n < count; n++) {
    const entry = entries.slice(n * 20, n * 20 + 18);
    offsets.push(entry.endsWith('n') ? Number(entry.slice(0, 10)) : 0);
  }
  const pages = latin1(bytes, offsets[2] ?? 0, offsets[3] ?? 0);
  const kids = /\/Kids \[([\d R]*)\]/.exec(pages);
  if (!kids || count <= OWN) refused('no page tree in object 2');
  return { bytes, offsets, xref, kids: [...kids[1]!.matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1])) };
}

const STREAM = Buffer.from('\nstream\n', 'latin1');

/**
 * The merged PDF's bytes, chunk by chunk, from the sources' bytes in order. The sources are read
 * one at a time, as the chunks are taken; a source that is not the writer's throws a MergeError.
 */
export async function* mergePdfs(
  sources: AsyncIterable<Uint8Array>,
  opts: MergeOptions,
): AsyncGenerator<Uint8Array> {
  // offsets[n]: where new object n starts; 1 to 3 are written last.
  const offsets: number[] = [0, 0, 0, 0];
  const kids: number[] = [];
  let at = 0;
  const out = (chunk: Uint8Array) => {
    at += chunk.length;
    return chunk;
  };
  yield out(HEADER);
  for await (const source of sources) {
    const src = read(Buffer.from(source.buffer, source.byteOffset, source.byteLength));
    const base = offsets.length - (OWN + 1);
    const renumber = (n: number) => (n <= OWN ? n : base + n);
    const order = src.offsets
      .map((offset, n) => ({ n, offset }))
      .filter(({ n, offset }) => n > OWN && offset > 0)
      .sort((a, b) => a.offset - b.offset);
    const ends = new Map(order.map((o, i) => [o.n, order[i + 1]?.offset ?? src.xref]));
    // Each object in the source's own order (the offsets grow as they are written).
    for (const n of src.offsets.keys()) {
      if (n <= OWN) continue;
      const start = src.offsets[n]!;
      const end = ends.get(n);
      if (!start || end === undefined) refused(`object ${n} is not in the xref table`);
      const line = src.bytes.indexOf(10, start);
      if (latin1(src.bytes, start, line) !== `${n} 0 obj`) refused(`object ${n} is not where the table says`);
      const stream = src.bytes.indexOf(STREAM, line);
      const dictEnd = stream >= 0 && stream < end ? stream : end;
      const dict = latin1(src.bytes, line, dictEnd).replace(
        /(?<![\d.])(\d+) 0 R\b/g,
        (_, ref: string) => `${renumber(Number(ref))} 0 R`,
      );
      offsets[renumber(n)] = at;
      yield out(Buffer.from(`${renumber(n)} 0 obj${dict}`, 'latin1'));
      if (dictEnd < end) yield out(src.bytes.subarray(dictEnd, end));
    }
    for (const kid of src.kids) {
      if (!offsets[renumber(kid)]) refused(`page ${kid} is missing`);
      kids.push(renumber(kid));
    }
    // Let the reader of the chunks drain before the next source is read.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (kids.length === 0) refused('no pages');
  const date = `D:${opts.createdAt.replace(/[-:T]/g, '').slice(0, 14)}Z`;
  const own = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    `<< /Producer (Scriptorium) /Creator (Scriptorium) /Title ${pdfString(opts.title)} /CreationDate (${date}) /ModDate (${date}) >>`,
  ];
  for (const [i, body] of own.entries()) {
    offsets[i + 1] = at;
    yield out(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1'));
  }
  const xref = at;
  yield out(Buffer.from(`xref\n0 ${offsets.length}\n0000000000 65535 f \n`, 'latin1'));
  for (let n = 1; n < offsets.length; n += 4096) {
    const lines = offsets
      .slice(n, n + 4096)
      .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
      .join('');
    yield out(Buffer.from(lines, 'latin1'));
  }
  yield out(
    Buffer.from(
      `trailer\n<< /Size ${offsets.length} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  );
}

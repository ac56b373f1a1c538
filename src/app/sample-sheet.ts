// The sample sheet of a personal font of one's own handwriting (docs/sample-sheet.md): its layout
// as JSON and its printable PDF, for the dashboard and the operator's CLI alike.
import {
  type SheetLayout,
  type SheetPaper,
  type SheetSet,
  sheetLayout,
  writeSheet,
} from '../foundry/index.ts';

export async function sampleSheet(
  set: SheetSet,
  paper: SheetPaper,
  now: Date,
): Promise<{ layout: SheetLayout; pdf: Uint8Array }> {
  const layout = sheetLayout(set, paper);
  return { layout, pdf: await writeSheet(layout, { createdAt: now }) };
}

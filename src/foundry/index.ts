// The foundry's one door: a handwriting sample sheet to print (sheet.ts), the pictures of a filled
// one read back (sheet-scan.ts), and the hand built from them, a font of the letters drawn
// (hand-build.ts). It stands above the render engine, which it enters only through the engine's
// door, and is pure as the engine is: no I/O, no clock, no environment; OpenCV, the tracer and the
// font writer come in as packages or arguments.
export {
  buildHand,
  type DrawingEdit,
  exportedFont,
  HAND_SIDE,
  HAND_UNITS_PER_EM,
  HAND_X_HEIGHT,
  type HandBuild,
  HandBuildError,
  type HandCharacter,
  type HandEdits,
  type HandWarning,
  type RedonePage,
  type Tracer,
} from './hand-build.ts';
export {
  readSheetCode,
  SHEET_PAPERS,
  SHEET_SETS,
  type SheetBox,
  type SheetCode,
  type SheetLayout,
  type SheetPaper,
  type SheetSet,
  sheetCodeBits,
  sheetLayout,
  variantsOf,
  writeSheet,
} from './sheet.ts';
export {
  type GrayImage,
  readSheetScan,
  SCAN_PX_PER_MM,
  type ScannedBox,
  SheetScanError,
  type SheetScan,
} from './sheet-scan.ts';

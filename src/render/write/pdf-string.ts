// A PDF text string, as the writer and the merger put titles and labels into a document.

export function pdfString(s: string): string {
  // A text string (§7.9.2.2) as UTF-16BE hex with a byte order mark: safe for any character.
  let hex = 'FEFF';
  for (let i = 0; i < s.length; i++) hex += s.charCodeAt(i).toString(16).padStart(4, '0');
  return `<${hex}>`;
}

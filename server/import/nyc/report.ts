/**
 * An NYC import's outcome as text (docs/resources.md, Status reports: an import returns the mapping table with the rows
 * each decision affected, and `npm run cli -- import` prints it).
 */
import type { ImportReport } from './importer.js';

/**
 * The import's outcome as text: totals, the mapping table with the rows each decision affected, skipped rows by
 * reason, fields left null by reason, then each skipped row with its line (what `npm run cli -- import` prints).
 */
export function formatImportReport(report: ImportReport): string {
  const lines = [
    `${report.source}: ${report.rowsRead} rows read, ${report.reportsStored} status reports stored ` +
      `(${report.reportsHistoryOnly} as history only), ${report.projectsCreated} projects created, ` +
      `${report.rowsAlreadyImported} already imported, ${report.skipped.length} skipped`,
    '',
    'mapping (rows affected by each decision in this run):',
  ];
  for (const m of report.mapping)
    lines.push(`  ${String(m.rows).padStart(5)}  ${m.column} → ${m.field}: ${m.rule}`);
  lines.push('', 'rows skipped, by reason:');
  for (const [reason, rows] of Object.entries(report.skippedByReason))
    lines.push(`  ${String(rows).padStart(5)}  ${reason}`);
  lines.push('', 'fields left null, by reason:');
  for (const n of report.nullFields) lines.push(`  ${String(n.rows).padStart(5)}  ${n.field} (${n.reason})`);
  if (report.skipped.length > 0) lines.push('');
  for (const note of report.skipped)
    lines.push(`skipped line ${note.line} (PID ${note.pid}): ${note.reason}`);
  return lines.join('\n');
}

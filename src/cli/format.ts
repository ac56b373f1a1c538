// Human-readable output of the admin commands (the --json form is the objects themselves).
import type { AccountView } from '../app/admin.ts';
import type { BalanceReport } from '../store/index.ts';

function balanceLine(b: BalanceReport): string {
  const s = b.subscription;
  return (
    `${b.mode.padEnd(4)}  available ${b.availableSheets} sheets  (plan ${s.sheetsLeft}/${s.sheetsPerPeriod}, extra ${b.extraSheets})` +
    `  pages today ${b.usage.pagesToday}/${s.pagesPerDay}, this period ${b.usage.pagesThisPeriod}`
  );
}

export function formatAccount(v: AccountView): string {
  const a = v.account;
  const period = v.balances.live.subscription;
  return [
    `${a.id}  ${a.name}`,
    `plan     ${a.plan}${a.periodDays ? ` (${a.periodDays} days, period ${period.periodStart} to ${period.periodEnd})` : ''}`,
    `balance  ${balanceLine(v.balances.live)}`,
    `         ${balanceLine(v.balances.test)}`,
    `keys     ${v.keys.filter((k) => !k.revokedAt).length} active of ${v.keys.length}`,
    ...v.keys.map(
      (k) =>
        `         ${k.id}  ${k.displayPrefix}…  ${k.mode}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  ${k.name}`,
    ),
  ].join('\n');
}

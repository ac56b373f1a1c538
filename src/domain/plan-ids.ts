// The plans' names and periods alone, without the catalogue's validation: what the command line
// offers in its help, which loads nothing else (src/domain/plans.ts re-exports them).
export const PLAN_IDS = ['none', 'week', 'basic', 'pro', 'premium'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export const PERIODS = [7, 30] as const;
export type PeriodDays = (typeof PERIODS)[number];

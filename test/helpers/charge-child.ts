// A separate process that charges jobs against a shared store, to prove the locking holds
// between processes (BEGIN IMMEDIATE on SQLite, row locks on PostgreSQL).
import { DEFAULT_PLANS } from '../../src/domain/plans.ts';
import { Store } from '../../src/store/index.ts';

const input = JSON.parse(process.argv[2]!);
const store = await Store.open(input.target, DEFAULT_PLANS);
const results = await Promise.all(
  (input.jobs as string[]).map((jobId) =>
    store.billing.charge(
      { accountId: input.accountId, mode: input.mode },
      { jobId, pages: input.pages, milliPerPage: input.milliPerPage },
      new Date(input.now),
    ),
  ),
);
await store.close();
process.stdout.write(JSON.stringify(results));

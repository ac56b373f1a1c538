import t from 'tap';
import { storeContract } from './contract/store.ts';
import { postgresAnswers, postgresFactory, PG_ADMIN_URL } from './helpers/stores.ts';

// In CI both halves of the contract must run; elsewhere a missing server skips, loudly.
if (await postgresAnswers()) {
  storeContract(t, postgresFactory);
} else if (process.env.CI) {
  t.fail(`PostgreSQL does not answer at ${PG_ADMIN_URL}: CI must run the PostgreSQL half of the store contract`);
} else {
  console.error(`\n!!! PostgreSQL does not answer at ${PG_ADMIN_URL}: the PostgreSQL half of the store contract is SKIPPED !!!\n`);
  t.pass('skipped: no PostgreSQL server', { skip: 'no PostgreSQL server answers' });
}

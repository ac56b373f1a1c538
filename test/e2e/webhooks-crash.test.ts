// The dispatcher killed mid-delivery loses nothing: the real server sends a delivery, the receiver
// holds it unanswered, the server is killed with SIGKILL and started again; once the lease runs
// out the delivery is sent again, answered, recorded as delivered, and processed once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cli } from '../helpers/cli.ts';
import { startReceiver, until } from '../helpers/receiver.ts';
import { startServe } from '../helpers/spawn.ts';

t.test(
  'kill -9 of the dispatcher while a delivery is in flight: sent again after a restart, processed once',
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'scriptorium-hookcrash-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      DATA_DIR: dir,
      RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_PRIVATE_TARGETS: 'true',
    };
    const first = await startServe(env);
    t.teardown(() => first.stop('SIGKILL'));
    const account = /account\s+(acc_\S+)/.exec(first.stdout())![1]!;
    const key = /API key\s+(hw_test_\S+)/.exec(first.stdout())![1]!;
    const template = /template\s+(tpl_\S+)\s+simple/.exec(first.stdout())![1]!;
    let secret = '';
    // The first delivery is held open (never answered); the later ones are answered 200.
    const receiver = await startReceiver(
      t,
      () => secret,
      (_r, seen) => (seen === 1 ? 'hold' : { status: 200 }),
    );
    const add = await cli(
      ['admin', 'webhook', 'add', '--account', account, '--url', receiver.url, '--mode', 'test', '--json'],
      { DATA_DIR: dir, WEBHOOK_PRIVATE_TARGETS: 'true' },
    );
    t.equal(add.code, 0, add.stderr);
    secret = JSON.parse(add.stdout).secret;

    const res = await fetch(`http://127.0.0.1:${first.port}/api/v1/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ templateId: template, text: 'Dear friend, a letter across a crash.' }),
    });
    const job = ((await res.json()) as { id: string }).id;
    await until('the first delivery is in flight', () => receiver.received.length === 1);
    t.equal(await first.stop('SIGKILL'), null, 'killed mid-delivery');
    t.equal(receiver.processed.length, 0, 'nothing processed yet');

    const second = await startServe(env, ['--no-demo']);
    t.teardown(() => second.stop('SIGKILL'));
    await until('the delivery is sent again and processed', () => receiver.processed.length === 1, 20_000);
    t.equal(receiver.received.length, 2, 'sent twice in all');
    t.equal(receiver.received[0]!.eventId, receiver.received[1]!.eventId, 'the same event');
    t.equal(receiver.processed[0]!.data.generation.id, job, 'the job, completed');
    await until('recorded as delivered', async () => {
      const log = await cli(['admin', 'webhook', 'deliveries', '--account', account, '--json'], {
        DATA_DIR: dir,
      });
      return JSON.parse(log.stdout).data[0]?.status === 'delivered';
    });
    const log = JSON.parse(
      (
        await cli(['admin', 'webhook', 'deliveries', '--account', account, '--json'], {
          DATA_DIR: dir,
          WEBHOOK_PRIVATE_TARGETS: 'true',
        })
      ).stdout,
    );
    t.equal(log.data.length, 1, 'one delivery');
    t.equal(log.data[0].attempts, 1, 'the killed try left no record; the one that was answered did');
    t.equal(await second.stop('SIGTERM'), 0);
  },
);

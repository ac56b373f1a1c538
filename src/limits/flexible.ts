// rate-limiter-flexible's classes, each from its own file: the package's index loads every store
// it supports (Mongo, MySQL, DynamoDB, Prisma, …), 9 MiB of every process that counts anything.
// The types are the package's own.
import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';

const require = createRequire(import.meta.url);

export const RateLimiterMemory =
  require('rate-limiter-flexible/lib/RateLimiterMemory.js') as typeof Flexible.RateLimiterMemory;
export const RateLimiterRes =
  require('rate-limiter-flexible/lib/RateLimiterRes.js') as typeof Flexible.RateLimiterRes;
export type RateLimiterRes = Flexible.RateLimiterRes;
/** Redis's, loaded by a farm's process only. */
export const rateLimiterRedis = () =>
  require('rate-limiter-flexible/lib/RateLimiterRedis.js') as typeof Flexible.RateLimiterRedis;

// A resident reader's request as the server takes it (zod): anything else on the socket is refused.
// The rest of the contract (names, limits, the reply) is in resident.ts, which the client loads
// without zod.
import { z } from 'zod';
import type { ResidentRequest } from './resident';

export * from './resident';

/** Far more than any command line or environment a person has; a request past them is not one. */
const ARGS_MAX = 256;
const TEXT_MAX = 64 * 1024;
const ENV_MAX = 4096;

const text = z.string().max(TEXT_MAX);

export const residentRequestSchema: z.ZodType<ResidentRequest> = z.object({
  version: z.string().max(100),
  argv: z.array(text).min(1).max(ARGS_MAX),
  cwd: text.min(1),
  env: z.record(z.string(), text).refine((env) => Object.keys(env).length <= ENV_MAX, 'too many variables'),
  place: z.object({ mnt: z.string().max(100), root: z.string().max(100) }),
});

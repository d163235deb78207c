// The two error bodies (docs/decisions-server.md §51): every route answers one of them,
// chosen by its family.
import { z } from 'zod';

export const CodedErrorBody = z
  .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() })
  .describe('`code` is stable and machine-readable; `message` is for people.');
export type CodedErrorBody = z.infer<typeof CodedErrorBody>;

export const AgoraErrorBody = z
  .object({
    ok: z.literal(false),
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .describe('Agora v1.0 "Error Codes" table code; `details.reason` names the failure (decisions-agora.md).');
export type AgoraErrorBody = z.infer<typeof AgoraErrorBody>;

import { z } from "zod";

/** Fixed at creation (spec §5.4). */
export const keyScopeSchema = z.enum(["read_only", "read_write"]);
export type KeyScope = z.infer<typeof keyScopeSchema>;

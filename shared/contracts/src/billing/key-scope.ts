import { z } from "zod";

/** Fixed at creation: a key's scope never changes. */
export const keyScopeSchema = z.enum(["read_only", "read_write"]);
export type KeyScope = z.infer<typeof keyScopeSchema>;

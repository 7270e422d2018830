import { z } from "zod";
import { defineContract } from "../contract.js";
import { healthReplySchema } from "./fields.js";

/** `<service>.health.get`: answered by every instance of a service while it can do its work. */
export function healthContract(service: string) {
  return defineContract({
    subject: `${service}.health.get`,
    request: z.object({}).strict(),
    reply: healthReplySchema,
    errors: [],
    timeoutMs: 2_000,
  });
}

import { z } from "zod";
import { defineContract } from "../contract.js";
import { emailSchema } from "../catalog/fields.js";
import { idSchema } from "../common/fields.js";

/** Password rules of dashboard users: the message completes "El campo password …". */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
const passwordRule = `debe tener entre ${PASSWORD_MIN_LENGTH} y ${PASSWORD_MAX_LENGTH} caracteres`;

/** A new password: 10 to 200 characters, taken as typed (never trimmed). */
export const passwordSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined ? "es obligatorio" : `debe ser un texto que ${passwordRule}`,
  })
  .min(PASSWORD_MIN_LENGTH, passwordRule)
  .max(PASSWORD_MAX_LENGTH, passwordRule);

/** A password being checked (login, current password): any length up to the maximum. */
const givenPasswordSchema = z.string().min(1).max(PASSWORD_MAX_LENGTH);

/** A user's e-mail, compared without case or surrounding blanks. */
export const userEmailSchema = z.string().trim().toLowerCase().pipe(emailSchema);

const nameSchema = z.string().trim().min(1).max(200);

/** `owner` signed the account up; `member` was added by the operator. */
export const userRoleSchema = z.enum(["owner", "member"]);
export type UserRole = z.infer<typeof userRoleSchema>;

/**
 * `billing.user.signup`: a new account (on the default plan, as `billing.account.create`) and
 * its owner, in one transaction.
 */
export const userSignup = defineContract({
  subject: "billing.user.signup",
  request: z
    .object({
      accountName: nameSchema,
      name: nameSchema,
      email: userEmailSchema,
      password: passwordSchema,
    })
    .strict(),
  reply: z.object({ accountId: idSchema, userId: idSchema }),
  errors: ["INVALID_FIELD", "USER_EMAIL_TAKEN"],
});

/**
 * `billing.user.login`: checks a password. An unknown e-mail and a wrong password get the same
 * INVALID_CREDENTIALS, in the same time. Failures are counted per address and per IP (in
 * billing's database, so every instance sees them); over the limit the answer is
 * LOGIN_THROTTLED (details `retryAfterSeconds`, `retryAt`) until the window lets it go.
 * A success clears the address's failures.
 */
export const userLogin = defineContract({
  subject: "billing.user.login",
  request: z
    .object({
      email: userEmailSchema,
      password: givenPasswordSchema,
      /** the client's address as the edge sees it */
      ip: z.string().trim().min(1).max(100),
    })
    .strict(),
  reply: z.object({
    userId: idSchema,
    accountId: idSchema,
    name: z.string(),
    email: z.string(),
  }),
  errors: ["INVALID_CREDENTIALS", "LOGIN_THROTTLED"],
});

/** `billing.user.get`: who a session belongs to. */
export const userGet = defineContract({
  subject: "billing.user.get",
  request: z.object({ userId: idSchema }).strict(),
  reply: z.object({
    userId: idSchema,
    accountId: idSchema,
    accountName: z.string(),
    name: z.string(),
    email: z.string(),
    role: userRoleSchema,
  }),
  errors: ["USER_NOT_FOUND"],
});

/** `billing.user.password.change`: needs the current password (INVALID_CREDENTIALS if wrong). */
export const userPasswordChange = defineContract({
  subject: "billing.user.password.change",
  request: z
    .object({ userId: idSchema, current: givenPasswordSchema, password: passwordSchema })
    .strict(),
  reply: z.object({}),
  errors: ["INVALID_CREDENTIALS", "USER_NOT_FOUND"],
});

/**
 * `billing.user.reset.request`: always answers `{}`, whether the e-mail exists or not. When it
 * does, a single-use token valid for 60 minutes is stored (only its SHA-256) and the link
 * `${baseUrl}/panel/restablecer?token=<token>` is e-mailed to the user.
 */
export const userResetRequest = defineContract({
  subject: "billing.user.reset.request",
  request: z
    .object({
      email: userEmailSchema,
      /** the dashboard's public origin, e.g. https://pasarela.example.com (no trailing slash) */
      baseUrl: z
        .url({ protocol: /^https?$/ })
        .max(500)
        .transform((url) => url.replace(/\/+$/, "")),
    })
    .strict(),
  reply: z.object({}),
  errors: [],
});

/** `billing.user.reset.complete`: sets a new password with a token from the e-mail, once. */
export const userResetComplete = defineContract({
  subject: "billing.user.reset.complete",
  request: z.object({ token: z.string().min(1).max(200), password: passwordSchema }).strict(),
  reply: z.object({ userId: idSchema }),
  errors: ["RESET_TOKEN_INVALID"],
});

/** `billing.user.add` (operator): another user of an existing account. */
export const userAdd = defineContract({
  subject: "billing.user.add",
  request: z
    .object({
      accountId: idSchema,
      name: nameSchema,
      email: userEmailSchema,
      password: passwordSchema,
    })
    .strict(),
  reply: z.object({ userId: idSchema }),
  errors: ["INVALID_FIELD", "ACCOUNT_NOT_FOUND", "USER_EMAIL_TAKEN"],
});

/**
 * `billing.account.owner.get`: who signed the account up, to be told about it by e-mail (an
 * endpoint disabled by the webhooks service). USER_NOT_FOUND when the account has no owner
 * (created by the operator, without a user).
 */
export const accountOwnerGet = defineContract({
  subject: "billing.account.owner.get",
  request: z.object({ accountId: idSchema }).strict(),
  reply: z.object({
    userId: idSchema,
    accountId: idSchema,
    accountName: z.string(),
    name: z.string(),
    email: z.string(),
  }),
  errors: ["USER_NOT_FOUND"],
});

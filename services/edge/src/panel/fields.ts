import type { AppError } from "@pasarela/errors";
import { html, type Html } from "./html.js";
import { notice } from "./layout.js";

/** What a form shows of a refusal: the message, and the field it is about when one is named. */
export interface FormProblem {
  readonly message: string;
  readonly field?: string;
}

/** Refusals that name their field by their code rather than in their details. */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  INVALID_CUIT: "cuit",
  PASSWORDS_DIFFER: "password2",
  USER_EMAIL_TAKEN: "email",
  INVALID_CREDENTIALS: "current",
};

/** A refusal as its form shows it: beside `details.field`, or the field its code is about. */
export function problemOf(error: AppError): FormProblem {
  const named = error.details?.field;
  const field = typeof named === "string" ? named : FIELD_OF_CODE[error.code];
  return { message: error.message, ...(field === undefined ? {} : { field }) };
}

const errorId = (name: string) => `${name}-error`;

/**
 * The attributes that tie an input to the problem about it: `aria-invalid`, its message as
 * the description, and the focus (the form shows one problem, so it is the first invalid field).
 */
export const invalidAttributes = (name: string, problem: FormProblem | undefined): Html =>
  problem?.field === name
    ? html`aria-invalid="true" aria-describedby="${errorId(name)}" autofocus`
    : html``;

/** The problem's message right under its field. */
export const fieldError = (name: string, problem: FormProblem | undefined): Html =>
  problem?.field === name
    ? html`<p class="field-error" id="${errorId(name)}">${problem.message}</p>`
    : html``;

/** A problem about none of the form's own fields, as a banner above it. */
export const formError = (problem: FormProblem | undefined, fields: readonly string[]): Html =>
  problem && !(problem.field !== undefined && fields.includes(problem.field))
    ? notice("error", problem.message)
    : html``;

/**
 * A labelled input and, when the problem is about it, its message under it, tied to it and
 * focused. `attributes` are the input's own (type, limits, autocomplete…), written by the code.
 */
export function inputField(field: {
  name: string;
  label: string;
  value: string | number | null | undefined;
  problem: FormProblem | undefined;
  attributes: Html;
  /** when the page has another input of that name */
  id?: string;
}): Html {
  const { name, problem } = field;
  const id = field.id ?? name;
  return html`<label for="${id}">${field.label}</label>
    <input
      id="${id}"
      name="${name}"
      ${field.attributes}
      value="${field.value}"
      ${invalidAttributes(name, problem)}
    />
    ${fieldError(name, problem)}`;
}

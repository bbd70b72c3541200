import { z } from 'zod';

/**
 * Field rules of spec section 5, shared by the server (the wall) and the forms (the mirror).
 * Messages are i18n keys under `validation.*`; the web app translates them.
 */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 32;

export type PasswordRule = 'length' | 'upper' | 'lower' | 'digit' | 'special' | 'threeKinds';

/** Which rules of the operator password policy a candidate meets (the form shows them live). */
export function passwordRules(pw: string): Record<PasswordRule, boolean> {
  const upper = /[A-Z]/.test(pw);
  const lower = /[a-z]/.test(pw);
  const digit = /[0-9]/.test(pw);
  const special = /[^A-Za-z0-9]/.test(pw);
  const kinds = [upper, lower, digit, special].filter(Boolean).length;
  return {
    length: pw.length >= PASSWORD_MIN && pw.length <= PASSWORD_MAX,
    upper,
    lower,
    digit,
    special,
    threeKinds: kinds >= 3,
  };
}

export const meetsPasswordPolicy = (pw: string): boolean => {
  const r = passwordRules(pw);
  return r.length && r.threeKinds && !/\s/.test(pw);
};

export const operatorPasswordSchema = z
  .string({ error: 'validation.required' })
  .min(1, { error: 'validation.required', abort: true })
  .refine(meetsPasswordPolicy, 'validation.passwordPolicy');

/** Login form (spec section 5): email required and valid; password required, at least 6. */
export const loginIdSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required', abort: true })
  .max(254, 'validation.email')
  .pipe(z.email('validation.email'));
export const loginPasswordSchema = z
  .string({ error: 'validation.required' })
  .min(1, { error: 'validation.required', abort: true })
  .min(6, 'validation.passwordMin6')
  .max(256, 'validation.tooLong');

export const personNameSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required', abort: true })
  .max(20, 'validation.max20');

/** Japanese phone numbers (0X-XXXX-XXXX, 0XXXXXXXXXX) or E.164 (+81...). Empty means none. */
export const PHONE_PATTERN = /^(\+[1-9]\d{7,14}|0\d{1,4}-?\d{1,4}-?\d{3,4})$/;
export const phoneSchema = z
  .string()
  .trim()
  .max(20, 'validation.phone')
  .refine((v) => v === '' || PHONE_PATTERN.test(v), 'validation.phone');

/** Japanese postal code, 123-4567. */
export const POSTAL_CODE_PATTERN = /^\d{3}-\d{4}$/;

export const authDigitsSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .regex(/^\d{6}$/, 'validation.authDigits');

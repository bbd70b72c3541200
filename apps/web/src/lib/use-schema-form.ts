import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

type Fields = Record<string, string>;
type FieldErrors<T extends Fields> = Partial<Record<keyof T, string>>;

/**
 * A small controlled form validated with a contract schema (`schema.safeParse`), for the login
 * screens where react-hook-form would be most of the download. Behaves like react-hook-form with
 * zodResolver: validates on submit (focusing the first invalid field), then re-validates a field
 * as it changes; `errors` holds the schema's first message per field (`validation.*` keys).
 */
export function useSchemaForm<T extends Fields, O>(schema: z.ZodType<O, T>, defaultValues: T) {
  const [values, setValues] = useState<T>(defaultValues);
  const [errors, setErrors] = useState<FieldErrors<T>>({});
  const [submitted, setSubmitted] = useState(false);
  const [elements] = useState(() => new Map<keyof T, HTMLInputElement>());

  const validate = (v: T) => {
    const result = schema.safeParse(v);
    const found: FieldErrors<T> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = issue.path[0];
        if (typeof key === 'string' && key in v && found[key as keyof T] === undefined)
          found[key as keyof T] = issue.message;
      }
    }
    return { result, found };
  };

  /** Props for a Mantine input: name, value, onChange and ref. */
  const field = <K extends keyof T & string>(name: K) => ({
    name,
    value: values[name],
    ref: (el: HTMLInputElement | null) => {
      if (el) elements.set(name, el);
      else elements.delete(name);
    },
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: e.currentTarget.value };
      setValues(next);
      if (submitted) {
        const message = validate(next).found[name];
        setErrors((prev) => ({ ...prev, [name]: message }));
      }
    },
  });

  const handleSubmit = (onValid: (data: O) => Promise<void> | void) => async (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    const { result, found } = validate(values);
    setErrors(found);
    if (!result.success) {
      const first = (Object.keys(values) as (keyof T)[]).find((k) => found[k] !== undefined);
      if (first !== undefined) elements.get(first)?.focus();
      return;
    }
    await onValid(result.data);
  };

  const resetField = (name: keyof T) => {
    setValues((prev) => ({ ...prev, [name]: defaultValues[name] }));
    setErrors((prev) => ({ ...prev, [name]: undefined }));
  };

  return { values, errors, field, handleSubmit, resetField };
}

import { ApiError } from '@portal/contract';
import { act, renderHook } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { applyServerErrors, fieldErrorText, hasFieldErrors } from '@/lib/server-errors';

interface Values {
  name: string;
  code: string;
  arms: { x: number }[];
}

const setup = () =>
  renderHook(() => useForm<Values>({ defaultValues: { name: '', code: '', arms: [] } })).result.current;

describe('server errors on form fields', () => {
  it('puts each VALIDATION_FAILED detail under its field (or the first segment of its path)', () => {
    const form = setup();
    const error = new ApiError(400, 'VALIDATION_FAILED', 'bad', [
      { path: 'name', message: 'validation.required' },
      { path: 'arms.0.x', message: 'validation.range' },
      { path: 'other', message: 'validation.required' },
    ]);
    let placed = false;
    act(() => {
      placed = applyServerErrors(error, form.setError, ['name', 'arms']);
    });
    expect(placed).toBe(true);
    expect(form.getFieldState('name').error).toMatchObject({ type: 'server', message: 'validation.required' });
    expect(form.getFieldState('arms').error).toMatchObject({ message: 'validation.range' });
    expect(form.getFieldState('code').error).toBeUndefined();
    expect(hasFieldErrors(error)).toBe(true);
  });

  it("gives DUPLICATE the screen's sentence, shown as is; without one it stays an alert", () => {
    const form = setup();
    const error = new ApiError(409, 'DUPLICATE', 'dup', [{ path: 'code', message: 'validation.duplicate' }]);
    expect(applyServerErrors(error, form.setError, ['code'])).toBe(false);
    act(() => {
      applyServerErrors(error, form.setError, ['code'], 'This code is taken.');
    });
    const text = fieldErrorText(form.getFieldState('code').error, (m) => `translated:${m}`);
    expect(text).toBe('This code is taken.');
    expect(fieldErrorText({ type: 'server', message: 'validation.required' }, (m) => `translated:${m}`)).toBe(
      'translated:validation.required',
    );
  });

  it('leaves other errors alone', () => {
    const form = setup();
    expect(applyServerErrors(new Error('boom'), form.setError, ['name'])).toBe(false);
    expect(applyServerErrors(new ApiError(500, 'INTERNAL', 'x'), form.setError, ['name'])).toBe(false);
    expect(hasFieldErrors(new ApiError(409, 'STALE_UPDATE', 'x'))).toBe(false);
  });
});

import { ApiError } from '@portal/contract';
import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { mapEditorEn } from '@/locales/en/map-editor';
import { mapEditorJa } from '@/locales/ja/map-editor';
import { i18n, useErrorText } from './i18n';

// The map editor's section (its own server reasons) is loaded, as on the editor's route.
beforeEach(() => {
  i18n.addResourceBundle('en', 'translation', mapEditorEn, true, true);
  i18n.addResourceBundle('ja', 'translation', mapEditorJa, true, true);
});

const text = (error: unknown) => renderHook(() => useErrorText()).result.current(error);

describe('one mapping from a server error to its text', () => {
  it("shows the server's reason, not a guess from the code (a busy robot on trial run)", () => {
    const busy = new ApiError(409, 'CONFLICT', 'busy', [{ path: 'robot', message: 'validation.robotBusy' }]);
    expect(text(busy)).toBe('The robot is busy: wait until it is idle, or cancel its order');
    expect(text(new ApiError(409, 'CONFLICT', 'x'))).toBe('The operation conflicts with the current data.');
  });

  it("shows a section's reason for a validation error, and the code's text for plain field errors", () => {
    const floor = new ApiError(400, 'VALIDATION_FAILED', 'x', [
      { path: 'floorId', message: 'validation.robotOnOtherFloor' },
    ]);
    expect(text(floor)).toBe('The robot is on another floor');
    const field = new ApiError(400, 'VALIDATION_FAILED', 'x', [{ path: 'name', message: 'validation.required' }]);
    expect(text(field)).toBe('Some values are invalid. Check the form.');
  });

  it('keeps the code text when the detail only restates it, and follows the language', async () => {
    const inUse = new ApiError(409, 'IN_USE', 'x', [{ path: 'id', message: 'validation.inUse' }]);
    expect(text(inUse)).toBe('This item is in use and cannot be deleted.');
    await i18n.changeLanguage('ja');
    const busy = new ApiError(409, 'CONFLICT', 'busy', [{ path: 'robot', message: 'validation.robotBusy' }]);
    expect(text(busy)).toBe('ロボットは動作中です。停止するか指示を取り消してから実行してください');
    expect(text(new ApiError(0, 'INTERNAL', 'offline'))).toBe(i18n.t('common.networkError'));
  });
});

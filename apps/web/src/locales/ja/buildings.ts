import type { Messages } from '../en';

/** ビル・フロア画面の日本語の文言（../ja.ts に展開）。 */
export const buildingsJa: Pick<Messages, 'buildingFilter' | 'buildingCommon'> = {
  buildingFilter: {
    label: 'ビル',
    all: 'すべてのビル',
    choose: 'ビルを選択',
  },
  buildingCommon: {
    edit: '編集',
    delete: '削除',
    cancel: 'キャンセル',
    save: '保存',
    add: '追加',
    loading: '読み込み中…',
  },
};

import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { auditEn } from '@/locales/en/audit';
import { auditJa } from '@/locales/ja/audit';

const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Issue 12 item 5: the audit log shows every action in words, in both languages. */
describe('audit labels', () => {
  it('label every action code the server can write (the contract list), in ja and en', () => {
    for (const code of AUDIT_ACTIONS) {
      expect(auditEn.actions[code], code).toBeTruthy();
      expect(auditJa.actions[code], code).toBeTruthy();
      expect(auditEn.actions[code], code).not.toBe(code);
      expect(auditJa.actions[code], code).toMatch(japanese);
    }
    expect(Object.keys(auditEn.actions).sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect(Object.keys(auditJa.actions).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('label every target type, in ja and en', () => {
    for (const type of AUDIT_TARGET_TYPES) {
      expect(auditEn.targetTypes[type], type).toBeTruthy();
      expect(auditJa.targetTypes[type], type).toMatch(japanese);
    }
    expect(Object.keys(auditJa.targetTypes).sort()).toEqual([...AUDIT_TARGET_TYPES].sort());
  });

  it('label the floor-map and robot actions', () => {
    expect(auditJa.actions['floor-map.save']).toBe('マップの保存');
    expect(auditEn.actions['robot.trial-run']).toBe('Trial run started');
    expect(auditJa.target('オペレーター', '山田 太郎')).toBe('オペレーター：山田 太郎');
  });
});

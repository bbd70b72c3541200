import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changePasswordBodySchema,
  errorCodes,
  errorStatus,
  floorLabel,
  initDataSchema,
  loginBodySchema,
  meetsPasswordPolicy,
  passwordRules,
  phoneSchema,
  updateProfileBodySchema,
} from '../src/index.ts';

describe('operator password policy (spec section 5)', () => {
  it.each([
    ['Abcdefgh12', true],
    ['abcdefgh1!', true],
    ['ABCDEFGH1!', true],
    ['Abcdefghij', false], // two kinds only
    ['abcdefgh12', false],
    ['Ab1!', false], // too short
    ['Ab1!'.repeat(8) + 'x', false], // 33 characters
    ['Ab1!'.repeat(8), true], // 32 characters
    ['Abc def 12!', false], // spaces are not allowed
  ])('%s → %s', (pw, ok) => {
    expect(meetsPasswordPolicy(pw)).toBe(ok);
  });

  it('reports each rule for the live checklist', () => {
    expect(passwordRules('abc')).toEqual({
      length: false,
      upper: false,
      lower: true,
      digit: false,
      special: false,
      threeKinds: false,
    });
    expect(passwordRules('Abc-12345x')).toMatchObject({
      length: true,
      upper: true,
      lower: true,
      digit: true,
      special: true,
      threeKinds: true,
    });
  });

  it('never accepts a password shorter than 10 or longer than 32 (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (pw) => {
        if (meetsPasswordPolicy(pw)) expect(pw.length >= 10 && pw.length <= 32).toBe(true);
      }),
    );
  });

  it('asks for the new password twice', () => {
    const r = changePasswordBodySchema.safeParse({
      oldPassword: 'x',
      newPassword: 'Abcdefgh12',
      confirmPassword: 'Abcdefgh13',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['confirmPassword'], message: 'validation.passwordMismatch' });
  });
});

describe('login form rules', () => {
  it('requires a valid email and a password of at least 6', () => {
    const messages = (v: unknown) =>
      loginBodySchema.safeParse(v).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`) ?? [];
    expect(messages({ loginId: '', loginPw: '' })).toEqual([
      'loginId:validation.required',
      'loginPw:validation.required',
    ]);
    expect(messages({ loginId: 'no-at-sign', loginPw: '12345' })).toEqual([
      'loginId:validation.email',
      'loginPw:validation.passwordMin6',
    ]);
    expect(messages({ loginId: 'a@b.example', loginPw: '123456' })).toEqual([]);
  });
});

describe('profile rules', () => {
  it('checks phone format and asks for a phone when SMS codes are chosen', () => {
    expect(phoneSchema.safeParse('03-1234-5678').success).toBe(true);
    expect(phoneSchema.safeParse('+819012345678').success).toBe(true);
    expect(phoneSchema.safeParse('').success).toBe(true);
    expect(phoneSchema.safeParse('phone').success).toBe(false);
    const base = {
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.example',
      phone: '',
      language: null,
      authMode: 'sms',
      updatedAt: 'x',
    };
    expect(updateProfileBodySchema.safeParse(base).error?.issues[0]?.message).toBe('validation.phoneRequiredForSms');
  });
});

describe('codes', () => {
  it('labels floors by the spec rule 1F=1, B1=0, B2=-1', () => {
    expect([2, 1, 0, -1].map(floorLabel)).toEqual(['2F', '1F', 'B1', 'B2']);
  });

  it('gives every error code an HTTP status, with 498 and 499 for the contract states', () => {
    for (const c of errorCodes) expect(errorStatus[c]).toBeGreaterThanOrEqual(400);
    expect(errorStatus.CONTRACT_ENDED).toBe(499);
    expect(errorStatus.PAYMENT_INCOMPLETE).toBe(498);
  });
});

describe('init data', () => {
  it('names the operator whose building index does not exist, and duplicate login IDs', () => {
    const r = initDataSchema.safeParse({
      organization: { name: 'X' },
      buildings: [{ name: 'B' }],
      operators: [
        { loginId: 'a@x.example', firstName: 'A', lastName: 'A', password: 'Abcdefgh12', type: 0, building: 1 },
        { loginId: 'A@x.example', firstName: 'A', lastName: 'A', password: 'Abcdefgh12', type: 0, building: 0 },
      ],
    });
    expect(r.error?.issues.map((i) => `${i.path.join('.')}:${i.message}`)).toEqual([
      'operators.0.building:validation.unknownBuilding',
      'operators.1.loginId:validation.duplicate',
    ]);
  });

  it('refuses to import a system administrator', () => {
    const r = initDataSchema.safeParse({
      organization: { name: 'X' },
      buildings: [{ name: 'B' }],
      operators: [
        { loginId: 'a@x.example', firstName: 'A', lastName: 'A', password: 'Abcdefgh12', type: 9, building: 0 },
      ],
    });
    expect(r.success).toBe(false);
  });
});

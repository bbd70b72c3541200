import {
  ELEVATOR_CODES,
  ELEVATOR_PHASES,
  errorCodes,
  ROBOT_MESSAGE_CODES,
  ROBOT_STATUS_LABELS,
  SECURITY_CODES,
  SECURITY_PHASES,
} from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { auditEn } from './en/audit';
import { ja } from './ja';
import { auditJa } from './ja/audit';
import { buildingScreensEn } from './en/building-screens';
import { robotsEn } from './en/robots';
import { buildingScreensJa } from './ja/building-screens';
import { robotsJa } from './ja/robots';
import { posesEn } from './en/poses';
import { posesJa } from './ja/poses';
import { flowsEn } from './en/flows';
import { flowsJa } from './ja/flows';
import { commandsEn } from './en/commands';
import { commandsJa } from './ja/commands';
import { teleopEn } from './en/teleop';
import { teleopJa } from './ja/teleop';
import { consoleEn } from './en/console';
import { consoleJa } from './ja/console';
import { accountEn } from './en/account';
import { accountJa } from './ja/account';
import { mapEditorEn } from './en/map-editor';
import { mapEditorJa } from './ja/map-editor';
import { schedulesEn } from './en/schedules';
import { schedulesJa } from './ja/schedules';
import { reportsEn } from './en/reports';
import { reportsJa } from './ja/reports';
import { thresholdsEn } from './en/thresholds';
import { thresholdsJa } from './ja/thresholds';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

/** Lazily loaded sections (lib/i18n.ts loadSection): each language's file, by section name. */
const sections = {
  robots: { en: robotsEn, ja: robotsJa },
  buildings: { en: buildingScreensEn, ja: buildingScreensJa },
  poses: { en: posesEn, ja: posesJa },
  flows: { en: flowsEn, ja: flowsJa },
  commands: { en: commandsEn, ja: commandsJa },
  teleop: { en: teleopEn, ja: teleopJa },
  console: { en: consoleEn, ja: consoleJa },
  account: { en: accountEn, ja: accountJa },
  mapEditor: { en: mapEditorEn, ja: mapEditorJa },
  schedules: { en: schedulesEn, ja: schedulesJa },
  reports: { en: reportsEn, ja: reportsJa },
  thresholds: { en: thresholdsEn, ja: thresholdsJa },
};

const enKeys = flatten(en);
const jaKeys = flatten(ja);

/** Every `validation.*` message the contract can produce, read from its source. */
function contractValidationKeys(): string[] {
  const sources = import.meta.glob<string>('../../../../packages/contract/src/*.ts', {
    query: '?raw',
    import: 'default',
    eager: true,
  });
  const keys = new Set<string>();
  for (const src of Object.values(sources)) {
    for (const m of src.matchAll(/'validation\.([A-Za-z0-9]+)'/g)) keys.add(`validation.${m[1]}`);
    // Helpers such as optionalText(n) build `validation.max${n}`.
    for (const m of src.matchAll(/\b(?:optionalText|optText|requiredName)\((\d+)\)/g))
      keys.add(`validation.max${m[1]}`);
  }
  return [...keys];
}

describe('translations', () => {
  it('have exactly the same keys in ja and en', () => {
    const missingInJa = [...enKeys.keys()].filter((k) => !jaKeys.has(k));
    const missingInEn = [...jaKeys.keys()].filter((k) => !enKeys.has(k));
    expect(missingInJa).toEqual([]);
    expect(missingInEn).toEqual([]);
  });

  it('have no empty text', () => {
    const empty = [...enKeys, ...jaKeys].filter(([, v]) => v.trim() === '').map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it('have the same keys in ja and en in every section, none of them empty', () => {
    for (const { en: sEn, ja: sJa } of Object.values(sections)) {
      const e = flatten(sEn);
      const j = flatten(sJa);
      expect([...e.keys()].filter((k) => !j.has(k))).toEqual([]);
      expect([...j.keys()].filter((k) => !e.has(k))).toEqual([]);
      expect([...e, ...j].filter(([, v]) => v.trim() === '').map(([k]) => k)).toEqual([]);
    }
  });

  it('keep section keys apart from the core texts and from each other', () => {
    const seen = new Set(Object.keys(en));
    for (const { en: sEn } of Object.values(sections))
      for (const top of Object.keys(sEn)) {
        expect(seen.has(top), `section key "${top}" is already used`).toBe(false);
        seen.add(top);
      }
  });

  it('translate every robot message and status of the contract', () => {
    for (const code of ROBOT_MESSAGE_CODES) expect(robotsJa.robotCommon.messages[code]).toBeTruthy();
    for (const label of ROBOT_STATUS_LABELS) expect(robotsJa.robotCommon.statusLabels[label]).toBeTruthy();
    expect(robotsEn.robotCommon.messages.emergencyStop).toBe('Emergency stop button pressed');
    expect(robotsEn.robotCommon.messages.D0001).toBe('Could not return to charging station');
  });

  it('word every elevator and security-door code and phase of the contract in ja and en', () => {
    for (const t of [robotsJa, robotsEn]) {
      for (const code of [...ELEVATOR_CODES, ...SECURITY_CODES])
        expect(t.robotCommon.messages[code], code).toBeTruthy();
      for (const p of ELEVATOR_PHASES) expect(t.robotCommon.buildingSystems.elevatorPhases[p], p).toBeTruthy();
      for (const p of SECURITY_PHASES) expect(t.robotCommon.buildingSystems.securityPhases[p], p).toBeTruthy();
    }
    expect(robotsJa.robotCommon.messages.A0013).not.toBe(robotsEn.robotCommon.messages.A0013);
  });

  it('translate every error code of the contract', () => {
    const missing = errorCodes.filter((c) => !enKeys.has(`errors.${c}`) || !jaKeys.has(`errors.${c}`));
    expect(missing).toEqual([]);
  });

  it('translate every validation message of the contract (in core, or in the section of the screens that show it)', () => {
    const keys = contractValidationKeys();
    expect(keys.length).toBeGreaterThan(10);
    // A section's own `<section>.validation.*` texts (e.g. the map editor's) cover the messages only
    // its screens can produce; those screens look there first.
    const inSections = (lang: 'en' | 'ja', key: string) =>
      Object.values(sections).some((s) =>
        [...flatten(s[lang]).keys()].some((k) => k.endsWith(`.${key}`) && k.split('.').at(-2) === 'validation'),
      );
    const covered = (key: string) =>
      (enKeys.has(key) || inSections('en', key.slice('validation.'.length))) &&
      (jaKeys.has(key) || inSections('ja', key.slice('validation.'.length)));
    expect(keys.filter((k) => !covered(k))).toEqual([]);
  });

  it('translate every flow validation message of the contract and the server (flows section)', () => {
    const sources = import.meta.glob<string>(
      ['../../../../packages/contract/src/flows/*.ts', '../../../../apps/server/src/modules/flows/*.ts'],
      { query: '?raw', import: 'default', eager: true },
    );
    const keys = new Set<string>();
    for (const src of Object.values(sources))
      for (const m of src.matchAll(/'(flowValidation\.[A-Za-z0-9]+|validation\.[A-Za-z0-9]+)'/g)) keys.add(m[1]!);
    expect([...keys].filter((k) => k.startsWith('flowValidation.')).length).toBeGreaterThan(20);
    const enTexts = new Map([...enKeys, ...flatten(flowsEn)]);
    const jaTexts = new Map([...jaKeys, ...flatten(flowsJa)]);
    expect([...keys].filter((k) => !enTexts.has(k) || !jaTexts.has(k))).toEqual([]);
  });

  it('translate every schedule message of the contract (schedules section or core)', () => {
    const sources = import.meta.glob<string>('../../../../packages/contract/src/schedules/*.ts', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const keys = new Set<string>();
    for (const src of Object.values(sources)) {
      for (const m of src.matchAll(/'((?:scheduleValidation|validation)\.[A-Za-z0-9]+)'/g)) keys.add(m[1]!);
      for (const m of src.matchAll(/`validation\.max\$\{(SCHEDULE_[A-Z_]+)\}`/g)) {
        const n = new RegExp(`${m[1]} = ([0-9_]+)`).exec(src)?.[1];
        if (n) keys.add(`validation.max${n.replace(/_/g, '')}`);
      }
    }
    expect([...keys].filter((k) => k.startsWith('scheduleValidation.')).length).toBeGreaterThanOrEqual(6);
    expect([...keys].filter((k) => k.startsWith('validation.max')).length).toBe(2);
    const enTexts = new Map([...enKeys, ...flatten(schedulesEn)]);
    const jaTexts = new Map([...jaKeys, ...flatten(schedulesJa)]);
    expect([...keys].filter((k) => !enTexts.has(k) || !jaTexts.has(k))).toEqual([]);
  });

  it('translate every report message of the contract (reports section or core)', () => {
    const sources = import.meta.glob<string>('../../../../packages/contract/src/reports/*.ts', {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const keys = new Set<string>();
    for (const src of Object.values(sources)) {
      for (const m of src.matchAll(/'((?:reportValidation|validation)\.[A-Za-z0-9]+)'/g)) keys.add(m[1]!);
      for (const m of src.matchAll(/`validation\.max\$\{([A-Z_]+)\}`/g)) {
        const n = new RegExp(`${m[1]} = ([0-9_]+)`).exec(src)?.[1];
        if (n) keys.add(`validation.max${n.replace(/_/g, '')}`);
      }
    }
    expect([...keys].filter((k) => k.startsWith('reportValidation.')).length).toBeGreaterThanOrEqual(3);
    expect([...keys].filter((k) => k.startsWith('validation.max')).length).toBe(2);
    const enTexts = new Map([...enKeys, ...flatten(reportsEn)]);
    const jaTexts = new Map([...jaKeys, ...flatten(reportsJa)]);
    expect([...keys].filter((k) => !enTexts.has(k) || !jaTexts.has(k))).toEqual([]);
  });

  it('give the spec texts of section 8', () => {
    expect(en.errors.IP_NOT_ALLOWED).toBe('Connection error: please access from an allowed network');
    expect(en.errors.ACCOUNT_LOCKED).toBe(
      'Login failed: maximum permitted login attempts exceeded, account locked for 10 minutes',
    );
    expect(en.auth.failed).toBe('Login failed. Check your email and password');
    expect(en.errors.AUTH_CODE_EXPIRED).toBe('Verification code has expired');
    expect(en.errors.AUTH_CODE_MISMATCH).toBe('Verification codes did not match');
    expect(en.auth.loggedIn).toBe('Logged in');
    expect(en.errors.CONTRACT_ENDED).toBe('The contract has ended, so you cannot log in');
    expect(en.errors.PAYMENT_INCOMPLETE).toBe('Payment has not been completed, so you cannot log in');
  });

  it('label the same audit codes in ja and en', () => {
    for (const group of ['actions', 'targetTypes'] as const) {
      expect(Object.keys(auditJa[group]).sort()).toEqual(Object.keys(auditEn[group]).sort());
      expect(Object.values(auditJa[group]).filter((v) => v.trim() === '')).toEqual([]);
    }
  });
});

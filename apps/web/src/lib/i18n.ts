import { languageSchema, type ErrorCode, type Language } from '@portal/contract';
import i18n from 'i18next';
import { useCallback } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import type { Messages } from '@/locales/en';
import type { BuildingScreensMessages } from '@/locales/en/building-screens';
import type { MapEditorMessages } from '@/locales/en/map-editor';
import type { PosesMessages } from '@/locales/en/poses';
import type { FlowsMessages } from '@/locales/en/flows';
import type { CommandsMessages } from '@/locales/en/commands';
import type { RobotsMessages } from '@/locales/en/robots';
import type { WebhooksMessages } from '@/locales/en/webhooks';
import { webhooksSection } from '@/locales/webhooks-section';
import type { TeleopMessages } from '@/locales/en/teleop';
import type { ConsoleMessages } from '@/locales/en/console';
import type { AccountMessages } from '@/locales/en/account';
import type { SchedulesMessages } from '@/locales/en/schedules';
import type { ReportsMessages } from '@/locales/en/reports';
import type { CheckItemsMessages } from '@/locales/en/check-items';
import type { CommandMappingsMessages } from '@/locales/en/command-mappings';
import type { ThresholdsMessages } from '@/locales/en/thresholds';
import type { WorkPlansMessages } from '@/locales/en/work-plans';
import { isApiError } from './api-client';
import { readItem, storageKeys, writeItem } from './storage';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    /** The core texts plus every lazily loaded section (see {@link loadSection}). */
    resources: { translation: AllMessages };
  }
}

export const languages: readonly Language[] = ['ja', 'en'];

/** Language = the stored choice (the account's, or the pre-login switch), else the browser's (ja or en), else en. */
export function detectLanguage(): Language {
  const stored = languageSchema.safeParse(readItem(storageKeys.language));
  if (stored.success) return stored.data;
  const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of browser) {
    const base = languageSchema.safeParse(tag?.toLowerCase().split('-')[0]);
    if (base.success) return base.data;
  }
  return 'en';
}

export function currentLanguage(): Language {
  const parsed = languageSchema.safeParse(i18n.language);
  return parsed.success ? parsed.data : 'en';
}

const syncHtmlLang = (lng: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
};

/** Each language's texts live in their own chunk: only the active one is downloaded. */
const loaders: Record<Language, () => Promise<Messages>> = {
  ja: () => import('@/locales/ja').then((m) => m.ja),
  en: () => import('@/locales/en').then((m) => m.en),
};

/** Languages whose core texts are in i18next (sections may be added before the core arrives). */
const coreLoaded = new Set<string>();

/** Downloads (once) the texts of `lng` and adds them to i18next. */
export async function loadLanguage(lng: Language): Promise<void> {
  if (!coreLoaded.has(lng)) {
    const messages = await loaders[lng]();
    i18n.addResourceBundle(lng, 'translation', messages, true, true);
    coreLoaded.add(lng);
  }
  await Promise.all([...wantedSections].map((name) => addSection(name, lng)));
}

/**
 * Texts of screens that are not needed at start live in sections, downloaded when a route that
 * needs them loads (`loadSection('robots')` in its lazy loader) and merged into the translation
 * resources, so the first download (the login route) stays small. Each section file holds top-level
 * keys that the core texts do not have (a test checks).
 */
export type SectionMessages = RobotsMessages &
  WebhooksMessages &
  BuildingScreensMessages &
  MapEditorMessages &
  PosesMessages &
  FlowsMessages &
  CommandsMessages &
  TeleopMessages &
  ConsoleMessages &
  AccountMessages &
  ThresholdsMessages &
  SchedulesMessages &
  ReportsMessages &
  CheckItemsMessages &
  WorkPlansMessages &
  CommandMappingsMessages;
/** One flat type for the typed keys (an intersection makes key inference too deep for tsc). */
export interface AllMessages
  extends
    Messages,
    RobotsMessages,
    WebhooksMessages,
    BuildingScreensMessages,
    MapEditorMessages,
    PosesMessages,
    FlowsMessages,
    CommandsMessages,
    TeleopMessages,
    ConsoleMessages,
    AccountMessages,
    ThresholdsMessages,
    SchedulesMessages,
    ReportsMessages,
    CheckItemsMessages,
    WorkPlansMessages,
    CommandMappingsMessages {}
export type SectionName =
  | 'robots'
  | 'webhooks'
  | 'buildings'
  | 'mapEditor'
  | 'poses'
  | 'flows'
  | 'commands'
  | 'teleop'
  | 'console'
  | 'account'
  | 'thresholds'
  | 'schedules'
  | 'reports'
  | 'checkItems'
  | 'workPlans'
  | 'commandMappings';
const sectionLoaders: Record<SectionName, Record<Language, () => Promise<object>>> = {
  webhooks: webhooksSection,
  robots: {
    en: () => import('@/locales/en/robots').then((m) => m.robotsEn),
    ja: () => import('@/locales/ja/robots').then((m) => m.robotsJa),
  },
  buildings: {
    en: () => import('@/locales/en/building-screens').then((m) => m.buildingScreensEn),
    ja: () => import('@/locales/ja/building-screens').then((m) => m.buildingScreensJa),
  },
  mapEditor: {
    en: () => import('@/locales/en/map-editor').then((m) => m.mapEditorEn),
    ja: () => import('@/locales/ja/map-editor').then((m) => m.mapEditorJa),
  },
  poses: {
    en: () => import('@/locales/en/poses').then((m) => m.posesEn),
    ja: () => import('@/locales/ja/poses').then((m) => m.posesJa),
  },
  flows: {
    en: () => import('@/locales/en/flows').then((m) => m.flowsEn),
    ja: () => import('@/locales/ja/flows').then((m) => m.flowsJa),
  },
  commands: {
    en: () => import('@/locales/en/commands').then((m) => m.commandsEn),
    ja: () => import('@/locales/ja/commands').then((m) => m.commandsJa),
  },
  teleop: {
    en: () => import('@/locales/en/teleop').then((m) => m.teleopEn),
    ja: () => import('@/locales/ja/teleop').then((m) => m.teleopJa),
  },
  console: {
    en: () => import('@/locales/en/console').then((m) => m.consoleEn),
    ja: () => import('@/locales/ja/console').then((m) => m.consoleJa),
  },
  account: {
    en: () => import('@/locales/en/account').then((m) => m.accountEn),
    ja: () => import('@/locales/ja/account').then((m) => m.accountJa),
  },
  thresholds: {
    en: () => import('@/locales/en/thresholds').then((m) => m.thresholdsEn),
    ja: () => import('@/locales/ja/thresholds').then((m) => m.thresholdsJa),
  },
  schedules: {
    en: () => import('@/locales/en/schedules').then((m) => m.schedulesEn),
    ja: () => import('@/locales/ja/schedules').then((m) => m.schedulesJa),
  },
  reports: {
    en: () => import('@/locales/en/reports').then((m) => m.reportsEn),
    ja: () => import('@/locales/ja/reports').then((m) => m.reportsJa),
  },
  checkItems: {
    en: () => import('@/locales/en/check-items').then((m) => m.checkItemsEn),
    ja: () => import('@/locales/ja/check-items').then((m) => m.checkItemsJa),
  },
  commandMappings: {
    en: () => import('@/locales/en/command-mappings').then((m) => m.commandMappingsEn),
    ja: () => import('@/locales/ja/command-mappings').then((m) => m.commandMappingsJa),
  },
  workPlans: {
    en: () => import('@/locales/en/work-plans').then((m) => m.workPlansEn),
    ja: () => import('@/locales/ja/work-plans').then((m) => m.workPlansJa),
  },
};
const wantedSections = new Set<SectionName>();
const sectionsLoaded = new Map<string, Promise<void>>();

function addSection(name: SectionName, lng: Language): Promise<void> {
  const key = `${lng}:${name}`;
  let done = sectionsLoaded.get(key);
  if (!done) {
    done = sectionLoaders[name][lng]().then((texts) => {
      i18n.addResourceBundle(lng, 'translation', texts, true, true);
    });
    // A failed download may be retried by the next route load.
    done.catch(() => sectionsLoaded.delete(key));
    sectionsLoaded.set(key, done);
  }
  return done;
}

/** Loads a section's texts in the current language (and, from then on, in any language switched to). */
export async function loadSection(name: SectionName): Promise<void> {
  wantedSections.add(name);
  try {
    await addSection(name, currentLanguage());
  } catch {
    // Offline: render anyway (keys) rather than fail the route; the next load retries.
  }
}

/**
 * Initialises i18next synchronously with the texts given (tests pass both languages); the app
 * calls {@link startI18n}, which loads the active language first.
 */
export function initI18n(
  lng: Language = detectLanguage(),
  resources: Partial<Record<Language, Messages>> = {},
): typeof i18n {
  const fresh = Object.keys(resources).filter((l) => !coreLoaded.has(l));
  for (const l of fresh) coreLoaded.add(l);
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: Object.fromEntries(Object.entries(resources).map(([l, translation]) => [l, { translation }])),
      lng,
      fallbackLng: 'en',
      supportedLngs: ['ja', 'en'],
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    i18n.on('languageChanged', syncHtmlLang);
  } else {
    for (const [l, messages] of Object.entries(resources))
      if (fresh.includes(l)) i18n.addResourceBundle(l, 'translation', messages, true, true);
    if (i18n.language !== lng) void i18n.changeLanguage(lng);
  }
  syncHtmlLang(i18n.language);
  return i18n;
}

/** Before the first render: detects the language and loads only its texts. */
export async function startI18n(lng: Language = detectLanguage()): Promise<void> {
  try {
    initI18n(lng, { [lng]: await loaders[lng]() });
  } catch {
    initI18n(lng); // The texts could not be downloaded: render anyway (keys) rather than a blank page.
  }
}

let wanted: Language | null = null;

/** Switches the UI language (loading its texts if needed) and remembers it in the browser. */
export async function applyLanguage(lng: Language): Promise<void> {
  writeItem(storageKeys.language, lng);
  wanted = lng;
  if (i18n.language === lng) return;
  try {
    await loadLanguage(lng);
  } catch {
    return; // Offline: keep the current language; the stored choice applies on the next visit.
  }
  // A later switch wins over this one.
  if (wanted === lng && i18n.language !== lng) await i18n.changeLanguage(lng);
}

type ValidationKey = keyof Messages['validation'];
const isValidationKey = (k: string): k is ValidationKey => i18n.exists(`validation.${k}`);

/**
 * Sections with server reasons of their own (`validation.robotBusy` is `mapEditor.validation.robotBusy`):
 * looked up after the core `validation.*` texts, when the section is loaded.
 */
const reasonScopes = ['mapEditor.validation'] as const;

const keyOf = (message: string) => (message.startsWith('validation.') ? message.slice('validation.'.length) : message);

/** The text of a contract `validation.*` key, or undefined when no loaded texts know it. */
function knownText(
  t: (key: string) => string,
  message: string,
  scopes: readonly string[] = ['validation', ...reasonScopes],
): string | undefined {
  const key = keyOf(message);
  for (const scope of scopes) if (i18n.exists(`${scope}.${key}`)) return t(`${scope}.${key}`);
  return undefined;
}

/** Translates a contract validation message (`validation.required`) in the current language. */
export function useMessageText(): (message: string | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (message) => {
      if (message === undefined) return undefined;
      const key = keyOf(message);
      if (isValidationKey(key)) return t(`validation.${key}`);
      return knownText(t as (key: string) => string, message) ?? t('validation.invalid');
    },
    [t],
  );
}

/** Detail keys that only restate the code (the code's sentence says more). */
const restating: ReadonlySet<string> = new Set(['invalid', 'inUse', 'notFound', 'duplicate', 'required']);

/** Codes whose details are per-field texts (shown under the fields by applyServerErrors). */
const fieldCodes: ReadonlySet<ErrorCode> = new Set(['VALIDATION_FAILED', 'DUPLICATE', 'BAD_FILTER']);

/**
 * THE mapping from a server error to the text the user reads, used everywhere: the reason the server
 * gave in its details when the texts know it (409 CONFLICT with `validation.robotBusy` reads "The robot
 * is busy…", never a guess from the code), else the text of the error code; a network failure has its
 * own text. For the per-field codes only a section's reason counts (a core field text such as
 * "Required" alone would not say which field: the form shows those under the fields).
 */
export function useErrorText(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback(
    (error) => {
      if (isApiError(error)) {
        if (error.status === 0) return t('common.networkError');
        const code: ErrorCode = error.code;
        const scopes = fieldCodes.has(code) ? reasonScopes : undefined;
        for (const d of error.details) {
          if (restating.has(keyOf(d.message))) continue;
          const reason = knownText(t as (key: string) => string, d.message, scopes);
          if (reason !== undefined) return reason;
        }
        return t(`errors.${code}`);
      }
      return t('errors.INTERNAL');
    },
    [t],
  );
}

export { i18n };

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { ARTIFACTS_DIR } from './state.ts';

/** Demo accounts the server seeds on an empty database (README "Demo accounts"). */
export const DEMO = {
  operator: { loginId: 'operator@demo.example', password: 'Demo-Operator-2026' },
  manager: { loginId: 'manager@demo.example', password: 'Demo-Manager-2026' },
  orgAdmin: { loginId: 'orgadmin@demo.example', password: 'Demo-OrgAdmin-2026' },
  sysAdmin: { loginId: 'sysadmin@demo.example', password: 'Demo-SysAdmin-2026' },
  twoStep: { loginId: 'twostep@demo.example', password: 'Demo-TwoStep-2026' },
  terms: { loginId: 'terms@demo.example', password: 'Demo-Terms-2026' },
} as const;

/**
 * Visible texts the tests look for, in both languages (copied from apps/web/src/locales on purpose:
 * the tests read the screen as an operator does, so a changed wording is a visible change).
 */
export const TEXT = {
  ja: {
    loginTitle: 'ログイン',
    loginFailed: 'ログインに失敗しました。メールアドレスとパスワードを確認してください',
    accountLocked: 'ログインに失敗しました。ログイン試行回数の上限を超えたため、アカウントを10分間ロックしました',
    codeTitle: '2段階認証',
    codeMismatch: '認証コードが一致しませんでした',
    forbidden: 'このページを表示する権限がありません。',
    initDataForbidden: '初期データ登録はシステム管理者のみ実行できます。',
    navRobotControl: 'ロボット操作',
    navLabel: 'メインナビゲーション',
    buildingName: 'ビル名',
    buildingCity: '市区町村',
    conflictTitle: 'このデータは他の人によって先に保存されました',
    conflictReload: '保存済みの内容を表示',
    ipSwitch: 'IPアドレスでアクセスを制限する',
    ipEnabled: 'IP制限はオンです。',
    ipOnList: 'リストに含まれています',
    orgDuplicateName: 'この組織名はすでに使われています',
    ipNotAllowed: '接続エラー: 許可されたネットワークからアクセスしてください',
    locationButton: (name: string) => `ロケーション変更: ${name}`,
    operatorsTitle: 'オペレーター',
    securityTitle: 'セキュリティ設定',
    mapImageSize: (width: number, height: number) => `${width} × ${height} ピクセル`,
  },
  en: {
    loginTitle: 'Sign in',
    loginFailed: 'Login failed. Check your email and password',
    accountLocked: 'Login failed: maximum permitted login attempts exceeded, account locked for 10 minutes',
    codeTitle: 'Two-step verification',
    codeMismatch: 'Verification codes did not match',
    forbidden: 'You do not have permission to view this page.',
    initDataForbidden: 'Only system administrators can import initial data.',
    navRobotControl: 'Robot control',
    navLabel: 'Main navigation',
    buildingName: 'Building name',
    buildingCity: 'City',
    conflictTitle: 'Someone else saved this record meanwhile',
    conflictReload: 'Show the stored version',
    ipSwitch: 'Restrict access by IP address',
    ipEnabled: 'IP restriction is on.',
    ipOnList: 'on the list',
    orgDuplicateName: 'This organization name is already in use',
    ipNotAllowed: 'Connection error: please access from an allowed network',
    locationButton: (name: string) => `Change location: ${name}`,
    operatorsTitle: 'Operators',
    securityTitle: 'Security settings',
    mapImageSize: (width: number, height: number) => `${width} × ${height} px`,
  },
} as const;

export type Lang = keyof typeof TEXT;

/** The language the page shows now (the app keeps <html lang> in step with it). */
export async function pageLanguage(page: Page): Promise<Lang> {
  // index.html says lang="en" until the app has loaded its texts and rendered: wait for that first,
  // or a slow start reads "en" on a Japanese page.
  await page.locator('#root > :not(style)').first().waitFor();
  const lang = await page.locator('html').getAttribute('lang');
  return lang === 'en' ? 'en' : 'ja';
}

/** Fills and submits the login form (the page must show it). */
export async function submitLogin(page: Page, loginId: string, password: string): Promise<void> {
  await page.getByTestId('login-email').fill(loginId);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Submits the login form and waits for the API's answer; returns its HTTP status. */
export async function submitLoginAndWait(page: Page, loginId: string, password: string): Promise<number> {
  const answered = page.waitForResponse(
    (res) => res.url().endsWith('/api/operators/login') && res.request().method() === 'POST',
  );
  await submitLogin(page, loginId, password);
  return (await answered).status();
}

/** Opens the login page and signs in; waits until the app left the login page. */
export async function signIn(page: Page, account: { loginId: string; password: string }): Promise<void> {
  await page.goto('/auth/login');
  await submitLogin(page, account.loginId, account.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/'));
}

/** Waits until web fonts are loaded, so screenshots show the real glyphs. */
export async function fontsReady(page: Page): Promise<void> {
  // A string expression: e2e/tsconfig.json has no DOM types.
  await page.evaluate('document.fonts.ready.then(() => true)');
}

/** Reads the pending terms to the end (with the wheel, as a reader would) and agrees. */
export async function agreeToTerms(page: Page): Promise<void> {
  const scroll = page.getByTestId('terms-scroll');
  const agree = page.getByTestId('terms-agree');
  await scroll.hover();
  for (let i = 0; i < 30 && (await agree.isDisabled()); i++) {
    await page.mouse.wheel(0, 2_000);
    await page.waitForTimeout(50);
  }
  await agree.click();
}

/** Signs out through the user menu and waits for the login page. */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await page.waitForURL((url) => url.pathname === '/auth/login');
  // A plain login page: the signed-out user's page is no redirect target for whoever signs in next.
  expect(new URL(page.url()).searchParams.has('redirect')).toBe(false);
}

/** Waits until no notification (such as "Logged in" or "Saved") covers the page. */
export async function noNotifications(page: Page): Promise<void> {
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
}

/** Where the screenshots of the e2e tests are kept (e2e/.artifacts/screens, or under E2E_ARTIFACTS_DIR). */
export const SCREENS_DIR = path.join(ARTIFACTS_DIR, 'screens');

/**
 * Keeps a screenshot of the page as `<name>.png` in SCREENS_DIR, without toasts and after the fonts
 * loaded; `fullPage` (the default) takes the whole page from its top, so the fixed header is drawn once.
 */
export async function keepScreen(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  const fullPage = opts.fullPage ?? true;
  mkdirSync(SCREENS_DIR, { recursive: true });
  await noNotifications(page);
  await fontsReady(page);
  // A string expression: e2e/tsconfig.json has no DOM types.
  if (fullPage) await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(SCREENS_DIR, `${name}.png`), fullPage });
}

/** Chooses the portal's language with the header's switch (if it is not already chosen). */
export async function useLanguage(page: Page, lang: Lang): Promise<void> {
  const languageSwitch = page.getByTestId('language-switch');
  if ((await languageSwitch.inputValue()) !== lang) await languageSwitch.selectOption(lang);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

/** The wall clock of `timeZone` at `ms` (`YYYY-MM-DDTHH:mm`), as schedule entries are written. */
export function wallClock(ms: number, timeZone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** The weekday (0 Sunday … 6 Saturday) of a wall-clock date-time's date. */
export const weekdayOf = (local: string) => new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay();

import type { Page } from '@playwright/test';

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
  },
} as const;

export type Lang = keyof typeof TEXT;

/** The language the page shows now (the app keeps <html lang> in step with it). */
export async function pageLanguage(page: Page): Promise<Lang> {
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

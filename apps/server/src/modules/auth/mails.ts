/** Texts of the mails the sign-in sends, in the language `mailLanguage` (lib/language.ts) picks for the operator. */
type Lang = string | null;

const fmt = (d: Date, lang: Lang) =>
  new Intl.DateTimeFormat(lang === 'ja' ? 'ja-JP' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: 'Asia/Tokyo',
  }).format(d) + ' (JST)';

export function authCodeMail(lang: Lang, code: string, minutes: number) {
  return lang === 'ja'
    ? {
        subject: '【ロボットポータル】認証コード',
        body: `認証コード: ${code}\n\nこのコードの有効期限は${minutes}分です。心当たりがない場合はこのメールを破棄してください。`,
      }
    : {
        subject: '[Robot Portal] Your verification code',
        body: `Verification code: ${code}\n\nThis code expires in ${minutes} minutes. If you did not try to log in, ignore this mail.`,
      };
}

export function loginNotificationMail(lang: Lang, info: { at: Date; ip: string; device: string }) {
  return lang === 'ja'
    ? {
        subject: '【ロボットポータル】ログインのお知らせ',
        body: `お使いのアカウントにログインがありました。\n\n日時: ${fmt(info.at, lang)}\nIPアドレス: ${info.ip}\n端末: ${info.device || '不明'}\n\n心当たりがない場合は、すぐにパスワードを変更し、組織の管理者に連絡してください。`,
      }
    : {
        subject: '[Robot Portal] New sign-in to your account',
        body: `Your account was signed in to.\n\nTime: ${fmt(info.at, lang)}\nIP address: ${info.ip}\nDevice: ${info.device || 'unknown'}\n\nIf this was not you, change your password now and contact your organization administrator.`,
      };
}

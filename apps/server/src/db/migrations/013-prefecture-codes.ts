import { sql, type Kysely } from 'kysely';

/**
 * Prefectures become a choice of the 47 by their JIS X 0401 code ('13' is Tokyo; the contract's
 * `places.ts`). Free text stored before then is turned into the code when it names a prefecture in
 * Japanese or English ('東京都', '東京', 'Tokyo', 'Tokyo-to', 'TOKYO', 'Tōkyō', full-width letters).
 * Anything else is left as it was: it is shown as written and an edit must choose a prefecture, so
 * no one's text is thrown away unseen (nulling it would lose what a person typed).
 *
 * The names are this migration's own copy, frozen with it (the web app's locales may change).
 */
const NAMES: ReadonlyArray<readonly [ja: string, en: string]> = [
  ['北海道', 'Hokkaido'],
  ['青森県', 'Aomori'],
  ['岩手県', 'Iwate'],
  ['宮城県', 'Miyagi'],
  ['秋田県', 'Akita'],
  ['山形県', 'Yamagata'],
  ['福島県', 'Fukushima'],
  ['茨城県', 'Ibaraki'],
  ['栃木県', 'Tochigi'],
  ['群馬県', 'Gunma'],
  ['埼玉県', 'Saitama'],
  ['千葉県', 'Chiba'],
  ['東京都', 'Tokyo'],
  ['神奈川県', 'Kanagawa'],
  ['新潟県', 'Niigata'],
  ['富山県', 'Toyama'],
  ['石川県', 'Ishikawa'],
  ['福井県', 'Fukui'],
  ['山梨県', 'Yamanashi'],
  ['長野県', 'Nagano'],
  ['岐阜県', 'Gifu'],
  ['静岡県', 'Shizuoka'],
  ['愛知県', 'Aichi'],
  ['三重県', 'Mie'],
  ['滋賀県', 'Shiga'],
  ['京都府', 'Kyoto'],
  ['大阪府', 'Osaka'],
  ['兵庫県', 'Hyogo'],
  ['奈良県', 'Nara'],
  ['和歌山県', 'Wakayama'],
  ['鳥取県', 'Tottori'],
  ['島根県', 'Shimane'],
  ['岡山県', 'Okayama'],
  ['広島県', 'Hiroshima'],
  ['山口県', 'Yamaguchi'],
  ['徳島県', 'Tokushima'],
  ['香川県', 'Kagawa'],
  ['愛媛県', 'Ehime'],
  ['高知県', 'Kochi'],
  ['福岡県', 'Fukuoka'],
  ['佐賀県', 'Saga'],
  ['長崎県', 'Nagasaki'],
  ['熊本県', 'Kumamoto'],
  ['大分県', 'Oita'],
  ['宮崎県', 'Miyazaki'],
  ['鹿児島県', 'Kagoshima'],
  ['沖縄県', 'Okinawa'],
];

/** Full-width to half-width, accents off ('ō' is 'o'), lower case, separators as one space. */
const normalize = (text: string): string =>
  text
    .normalize('NFKC')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s\-_.,・]+/g, ' ')
    .trim();

const byName = new Map<string, string>();
NAMES.forEach(([ja, en], i) => {
  const code = String(i + 1).padStart(2, '0');
  byName.set(code, code);
  byName.set(String(i + 1), code);
  byName.set(normalize(ja), code);
  // '東京都' → '東京', '京都府' → '京都', '神奈川県' → '神奈川' ('北海道' has no such suffix).
  if (/[都府県]$/.test(ja)) byName.set(normalize(ja.slice(0, -1)), code);
  byName.set(normalize(en), code);
});
byName.set('hokkai', '01'); // 'Hokkai-do'
byName.set('gumma', '10'); // the older romanization

/** The prefecture code a stored text names, or null when it names none. */
export function prefectureCodeOf(text: string): string | null {
  const key = normalize(text);
  const direct = byName.get(key);
  if (direct) return direct;
  // 'Tokyo-to', 'Osaka fu', 'Aomori-ken', 'Hokkai-do', 'Aichi Prefecture', 'Tokyo Metropolis', 'Pref. Aichi'.
  const bare = key.replace(/ (?:to|fu|ken|do|prefecture|pref|metropolis)$/, '').replace(/^(?:prefecture of|pref) /, '');
  return byName.get(bare) ?? null;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['organizations', 'buildings'] as const) {
    const { rows } = await sql<{ prefecture: string }>`
      select distinct prefecture from ${sql.table(table)} where prefecture is not null`.execute(db);
    for (const { prefecture } of rows) {
      const code = prefecture.trim() === '' ? null : prefectureCodeOf(prefecture);
      if (code === prefecture) continue;
      // Blank text becomes null (a form's '' has always meant "none"); a name becomes its code.
      if (code === null && prefecture.trim() !== '') continue;
      await sql`update ${sql.table(table)} set prefecture = ${code} where prefecture = ${prefecture}`.execute(db);
    }
  }
}

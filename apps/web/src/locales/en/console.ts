/**
 * English texts of the robot console (/console): a lazily loaded section
 * (lib/i18n.ts `loadSection('console')`). Top-level keys must not exist in ../en.ts.
 */
export const consoleEn = {
  consoleScreen: {
    title: 'Robot console',
  },
};

type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
/** The shape the Japanese section must have. */
export type ConsoleMessages = DeepStrings<typeof consoleEn>;

/**
 * English texts of the teleoperation screens (/app/tele-ope, /app/basic): a lazily loaded section
 * (lib/i18n.ts `loadSection('teleop')`). Top-level keys must not exist in ../en.ts.
 */
export const teleopEn = {
  teleopScreen: {
    title: 'Remote operation',
  },
};

type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
/** The shape the Japanese section must have. */
export type TeleopMessages = DeepStrings<typeof teleopEn>;

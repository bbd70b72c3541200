import { robotActivityEntrySchema } from '@portal/contract';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { robotsEn } from '@/locales/en/robots';
import { robotsJa } from '@/locales/ja/robots';
import { activityText } from './components/activity-log';

/** A failed health check reads with its problems in words, in each language. */
describe('health check entries of the activity log', () => {
  const failed = robotActivityEntrySchema.parse({
    id: 1,
    robotId: 5,
    buildingId: 1,
    at: '2026-03-31T16:05:00.000Z',
    level: 0,
    kind: 'healthCheck',
    code: 'failed',
    params: { flowId: 3, flowName: 'Night patrol', problems: 'emergencyStop,lowBattery,wrongFloor', battery: 15.4 },
  });

  const textIn = async (lng: 'en' | 'ja') => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng,
      resources: { en: { translation: robotsEn }, ja: { translation: robotsJa } },
      interpolation: { escapeValue: false },
    });
    return activityText(failed, i18n.t);
  };

  it('names each problem in English and Japanese', async () => {
    expect(await textIn('en')).toBe(
      "Health check failed, so Night patrol did not start: emergency stop pressed, battery low (15%), not on the flow's floor",
    );
    expect(await textIn('ja')).toBe(
      'ヘルスチェックに失敗したため、Night patrol を開始しませんでした：非常停止ボタンが押されている、バッテリー残量不足（15%）、フローのフロアにいない',
    );
  });
});

import { CONTRACT_WARNING_DAYS } from '@portal/contract';

const DAY_MS = 24 * 60 * 60 * 1000;

/** From one month (CONTRACT_WARNING_DAYS) before the end date the banner warns. */
export function isContractEndingSoon(contractEndAt: string | null, now: Date = new Date()): boolean {
  if (!contractEndAt) return false;
  const end = new Date(contractEndAt).getTime();
  if (Number.isNaN(end)) return false;
  return end - now.getTime() <= CONTRACT_WARNING_DAYS * DAY_MS;
}

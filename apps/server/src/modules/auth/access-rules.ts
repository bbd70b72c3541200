import { isSystemAdmin } from '@portal/contract';
import { AppError } from '../../lib/errors.ts';
import { ipAllowed } from '../../lib/ip.ts';

/**
 * The checks shared by login and every signed-in request: contract state and the building's IP
 * allow-list. System administrators run the platform, so neither applies to them.
 */
export function checkContract(
  facts: { type: number; contractEndAt: string | null; paymentCompleted: number | null },
  now: Date,
): void {
  if (isSystemAdmin(facts.type)) return;
  // The end date is the last day of service (YYYY-MM-DD, UTC).
  if (facts.contractEndAt && facts.contractEndAt.slice(0, 10) < now.toISOString().slice(0, 10)) {
    throw new AppError('CONTRACT_ENDED', 'The contract has ended, so login is not possible');
  }
  if (facts.paymentCompleted === 0) {
    throw new AppError('PAYMENT_INCOMPLETE', 'Payment has not been completed, so login is not possible');
  }
}

export async function checkIpAllowList(
  facts: { type: number; buildingId: number | null; ipRestricted: number | null },
  ip: string,
  rulesOf: (buildingId: number) => Promise<string[]>,
): Promise<void> {
  if (isSystemAdmin(facts.type) || !facts.ipRestricted || facts.buildingId == null) return;
  const rules = await rulesOf(facts.buildingId);
  if (!ipAllowed(ip, rules)) {
    throw new AppError('IP_NOT_ALLOWED', 'Connection error: please access from an allowed network');
  }
}

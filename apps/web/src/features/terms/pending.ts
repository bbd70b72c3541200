import type { TermCheck, TermDocument } from '@portal/contract';

/**
 * Documents the operator must agree to (spec section 4): TOS and PP always; MC only for the
 * maintenance company's owner.
 */
export function pendingDocuments(check: TermCheck, isMaintenanceOwner: boolean): TermDocument[] {
  const docs = [check.TOS, check.PP, isMaintenanceOwner ? check.MC : null];
  return docs.filter((d): d is TermDocument => d !== null);
}

/** Whether agreement must be asked; `null` means the answer needs the contract (only MC pending). */
export function agreementNeeded(check: TermCheck): boolean | null {
  if (check.TOS || check.PP) return true;
  if (check.MC) return null;
  return false;
}

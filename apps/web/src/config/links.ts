import { env } from './env';
import { paths } from './paths';

/** Where the contract errors (spec section 8: 498, 499) send the operator for help. */
export const SUPPORT_URL = env.VITE_SUPPORT_URL;
export const contractHelpHref = (code: 'CONTRACT_ENDED' | 'PAYMENT_INCOMPLETE') => paths.auth.error.getHref(code);

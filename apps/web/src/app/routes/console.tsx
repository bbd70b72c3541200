import { RequireAdmin } from '../guards/require-role';
import { Component as ComingSoon } from './coming-soon';

/** /console/:serialNo: administrators only (spec section 6); the console itself comes with teleoperation. */
export function Component() {
  return (
    <RequireAdmin>
      <ComingSoon />
    </RequireAdmin>
  );
}

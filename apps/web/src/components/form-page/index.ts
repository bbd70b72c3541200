export { FormShell, LockedFields } from './form-shell';
export { useFormKit, type FormKit, type FormKitOptions, type SaveOptions } from './use-form-kit';
export { LeaveGuardDialog } from './leave-guard-dialog';
export { OptionalNumberInput } from './optional-number-input';

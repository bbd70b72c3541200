/** Placeholder: replaced by the feature's screen. */
export function Component() {
  return null;
}

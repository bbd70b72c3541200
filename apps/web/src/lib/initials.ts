/** Initials of an operator: last name's first letter, then first name's (spec section 3). */
export function initials(lastName: string, firstName: string): string {
  const first = (s: string) => Array.from(s.trim())[0] ?? '';
  return (first(lastName) + first(firstName)).toUpperCase();
}

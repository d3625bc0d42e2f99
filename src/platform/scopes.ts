/** Scope tiers: read ⊂ write ⊂ admin; admin carries financials; write:attachments is a narrow grant. */
export type Tier = 'none' | 'operator' | 'read' | 'write' | 'admin' | 'financials' | 'write:attachments';
export const GRANTABLE_SCOPES = ['read', 'write', 'admin', 'write:attachments'] as const;
export type Scope = (typeof GRANTABLE_SCOPES)[number];
export const PERSONAL_SCOPES: Scope[] = ['read', 'write'];

/** Stores scopes with what they include, so a key's record shows everything it may do. */
export function expandScopes(scopes: readonly string[]): Scope[] {
  const set = new Set<Scope>();
  for (const scope of scopes) {
    if (scope === 'admin') set.add('admin').add('write').add('read');
    else if (scope === 'write') set.add('write').add('read');
    else if (scope === 'read') set.add('read');
    else if (scope === 'write:attachments') set.add('write:attachments');
  }
  return GRANTABLE_SCOPES.filter((s) => set.has(s));
}

export function hasTier(scopes: readonly string[], tier: Tier): boolean {
  switch (tier) {
    case 'none':
    case 'operator':
      return true;
    case 'read':
      return scopes.includes('read') || scopes.includes('write') || scopes.includes('admin');
    case 'write':
      return scopes.includes('write') || scopes.includes('admin');
    case 'admin':
    case 'financials':
      return scopes.includes('admin');
    case 'write:attachments':
      return scopes.includes('write:attachments') || scopes.includes('write') || scopes.includes('admin');
  }
}

/** What a web session may do: an owner's or administrator's session has the admin tier, a member's read and write. */
export function sessionScopes(role: 'member' | 'admin' | 'owner' | null): Scope[] {
  return role === 'owner' || role === 'admin' ? expandScopes(['admin']) : [...PERSONAL_SCOPES];
}

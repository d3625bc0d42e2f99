import type { Ctx } from './context.ts';
import { AppError, type ErrorCode } from './errors.ts';

/**
 * The one rule for the flows the spec leaves to the web application (docs/decisions/0053): the credential decides.
 * A member's web session may perform them (its role is checked by the flow); an API key of any kind is refused with
 * the code the spec names for the flow (MANAGEMENT_UI_ONLY for the team, CALENDAR_APPROVAL_UI_ONLY for approvals).
 */
export function assertWebSession(
  ctx: Ctx,
  code: Extract<ErrorCode, 'MANAGEMENT_UI_ONLY' | 'CALENDAR_APPROVAL_UI_ONLY'>,
  message: string,
  details: Record<string, unknown> = {},
): void {
  if (ctx.key.kind !== 'session') throw new AppError(code, message, details);
}

/** A web-only flow some members may not perform: owners (and admins where allowed) only. */
export function assertRole(ctx: Ctx, roles: ReadonlyArray<'owner' | 'admin'>, what: string): void {
  if (ctx.actor.role && (roles as readonly string[]).includes(ctx.actor.role)) return;
  const required = roles.join(' or ');
  throw new AppError('FORBIDDEN', `Only ${required === 'owner' ? 'an owner' : 'owners and admins'} may ${what}`, {
    required_role: required,
  });
}

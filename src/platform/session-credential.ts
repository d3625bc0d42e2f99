import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * The web session's credential (docs/decisions/0051): a cookie holding 32 random bytes (only their SHA-256 is
 * stored), and for writes a CSRF token derived from it, so nothing else needs storing. The `__Host-` name is
 * used over HTTPS: such a cookie must be Secure, for this host only and Path=/, so no sibling host or plain
 * HTTP page can plant one.
 */
export const SESSION_COOKIE = 'svc_session';
export const SECURE_SESSION_COOKIE = '__Host-svc_session';
export const CSRF_HEADER = 'x-csrf-token';
const TOKEN_BYTES = 32;
const TOKEN_TEXT = /^[A-Za-z0-9_-]{43}$/;

let secret: Buffer | undefined;

/** The key CSRF tokens are derived with: platform_settings.session_secret, read at start. */
export function setSessionSecret(hex: string): void {
  secret = Buffer.from(hex, 'hex');
}

export interface SecretToken {
  /** What the browser (or the mail's link) carries: 43 base64url characters. */
  token: string;
  /** What the database keeps. */
  hash: Buffer;
}

/** 32 random bytes as text, and their hash: session tokens and password-reset tokens alike. */
export function newSecretToken(): SecretToken {
  const bytes = randomBytes(TOKEN_BYTES);
  return { token: bytes.toString('base64url'), hash: createHash('sha256').update(bytes).digest() };
}

/** The stored hash of a token as sent; undefined when the text cannot be one of ours. */
export function secretTokenHash(token: string): Buffer | undefined {
  if (!TOKEN_TEXT.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  return bytes.length === TOKEN_BYTES ? createHash('sha256').update(bytes).digest() : undefined;
}

/** The session's CSRF token: HMAC-SHA256 of its token under the service's secret. */
export function csrfTokenOf(token: string): string {
  if (!secret) throw new Error('the session secret has not been loaded (setSessionSecret)');
  return createHmac('sha256', secret).update(token).digest('base64url');
}

const secure = (request: FastifyRequest) => request.protocol === 'https';
const cookieNameFor = (request: FastifyRequest) => (secure(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** The session token the request's cookie carries (the name that fits its scheme only), if any. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const name = cookieNameFor(request);
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** Set-Cookie for a new session; Max-Age is the absolute time-out, so the browser drops it no later. */
export function sessionCookie(request: FastifyRequest, token: string, maxAgeSeconds: number): string {
  const attributes = [`Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (secure(request)) attributes.push('Secure');
  return [`${cookieNameFor(request)}=${token}`, ...attributes].join('; ');
}

/** Set-Cookie that removes the session cookie (signed out, ended, expired). */
export const clearedSessionCookie = (request: FastifyRequest): string => sessionCookie(request, '', 0);

const rejected = (reason: string, message: string) => new AppError('CSRF_REJECTED', message, { reason });

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * A browser names where a request comes from: Sec-Fetch-Site (when present) must say same-origin (or none: typed
 * by the user), and Origin (when present) must be this service's own origin or SVC_PUBLIC_URL's. Checked on
 * every cookie-authenticated write, and on the anonymous sign-in and password-reset posts (login CSRF).
 */
export function checkRequestOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  const site = header(request, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    throw rejected('CROSS_SITE', `A ${site} request may not act on a session (Sec-Fetch-Site: ${site})`);
  const origin = header(request, 'origin');
  if (origin === undefined) return;
  const own = originOf(`${request.protocol}://${request.host}`);
  const sent = originOf(origin);
  if (sent === undefined || (sent !== own && sent !== (publicUrl && originOf(publicUrl))))
    throw rejected('FOREIGN_ORIGIN', `Requests from ${origin} may not act on a session of this service`);
}

/** A cookie-authenticated write: the origin check, and X-CSRF-Token equal to the session's CSRF token. */
export function checkCsrf(request: FastifyRequest, token: string, publicUrl: string | undefined): void {
  checkRequestOrigin(request, publicUrl);
  const sent = header(request, CSRF_HEADER);
  if (!sent) throw rejected('MISSING_TOKEN', 'A signed-in write needs the X-CSRF-Token header (from the session)');
  const expected = Buffer.from(csrfTokenOf(token));
  const given = Buffer.from(sent);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw rejected('WRONG_TOKEN', "X-CSRF-Token does not match this session's CSRF token");
}

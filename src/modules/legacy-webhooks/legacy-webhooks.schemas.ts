import { Type, type Static } from 'typebox';

export const LEGACY_EVENTS = ['client_added', 'contact_added'] as const;
export type LegacyEvent = (typeof LEGACY_EVENTS)[number];

export const LegacySubscription = Type.Object(
  {
    id: Type.Integer(),
    webhook: Type.Union(LEGACY_EVENTS.map((e) => Type.Literal(e))),
    url: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type LegacySubscriptionRecord = Static<typeof LegacySubscription>;

export const LegacySubscribe = Type.Object(
  {
    webhook: Type.Union(
      LEGACY_EVENTS.map((e) => Type.Literal(e)),
      { description: 'client_added or contact_added' },
    ),
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'http or https URL; checked at delivery only' }),
  },
  { additionalProperties: false },
);

export const LegacyToken = Type.Object({
  token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds: 600' }),
  expires_at: Type.String({ format: 'date-time' }),
});

export const LegacyIdParam = Type.Object(
  { subscription_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) },
  { additionalProperties: false },
);

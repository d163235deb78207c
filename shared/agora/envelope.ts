// The Agora v1.0 envelope ("Envelope Format"), as a union keyed on `type` whose payload schema
// follows from the type. Objects are loose: unknown fields are kept, so the value a schema
// returns still carries every byte the signature covers.
import { z } from 'zod';
import { DidKeyId, Identifier, UtcTimestamp } from './fields';
import { AcceptPayload, CancelPayload, ErrorPayload, OfferPayload, RequestPayload, ResultPayload } from './payloads';

/** "`version` field must match exactly" (Version Compatibility). */
export const AGORA_VERSION = '1.0';

/**
 * The five types of "Message Types", plus CANCEL, which the state table uses ("Client sends
 * CANCEL") without defining (decisions-agora.md, "CANCEL").
 */
export const MESSAGE_TYPES = ['REQUEST', 'OFFER', 'ACCEPT', 'RESULT', 'ERROR', 'CANCEL'] as const;
export const MessageType = z.enum(MESSAGE_TYPES);
export type MessageType = z.infer<typeof MessageType>;

export const Sender = z.looseObject({
  id: DidKeyId,
  name: z.string().min(1).max(256).optional(),
  url: z.url({ protocol: /^https?$/ }).optional(),
});

export const Recipient = z.looseObject({ id: DidKeyId });

export const Meta = z.looseObject({
  /** Seconds; expired when ts + ttl < now. Default 300 (Timeout Rules). */
  ttl: z.int().nonnegative().optional(),
  hop: z.int().nonnegative().optional(),
});

const common = {
  version: z.literal(AGORA_VERSION),
  id: Identifier,
  ts: UtcTimestamp,
  sender: Sender,
  recipient: Recipient.optional(),
  thread: z.looseObject({ id: Identifier }),
  meta: Meta.optional(),
};

const variant = <T extends MessageType, P extends z.ZodType>(type: T, payload: P) =>
  z.looseObject({ ...common, type: z.literal(type), payload });

const unsignedVariants = [
  variant('REQUEST', RequestPayload),
  variant('OFFER', OfferPayload),
  variant('ACCEPT', AcceptPayload),
  variant('RESULT', ResultPayload),
  variant('ERROR', ErrorPayload),
  variant('CANCEL', CancelPayload),
] as const;

const Sig = z.string().min(1);

/** An envelope before signing ("Create envelope without `sig` field"). */
export const UnsignedEnvelope = z.discriminatedUnion('type', unsignedVariants);

export const Envelope = z.discriminatedUnion('type', [
  unsignedVariants[0].extend({ sig: Sig }),
  unsignedVariants[1].extend({ sig: Sig }),
  unsignedVariants[2].extend({ sig: Sig }),
  unsignedVariants[3].extend({ sig: Sig }),
  unsignedVariants[4].extend({ sig: Sig }),
  unsignedVariants[5].extend({ sig: Sig }),
]);

export type UnsignedEnvelope = z.infer<typeof UnsignedEnvelope>;
export type Envelope = z.infer<typeof Envelope>;
export type EnvelopeOf<T extends MessageType> = Extract<Envelope, { type: T }>;
export type UnsignedEnvelopeOf<T extends MessageType> = Extract<UnsignedEnvelope, { type: T }>;

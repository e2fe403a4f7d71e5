// Original file: proto/hearts/v1/rules.proto

export const JokerKind = {
  JOKER_KIND_UNSPECIFIED: 'JOKER_KIND_UNSPECIFIED',
  JOKER_KIND_WILD: 'JOKER_KIND_WILD',
  JOKER_KIND_HEART_1911: 'JOKER_KIND_HEART_1911',
} as const;

export type JokerKind =
  | 'JOKER_KIND_UNSPECIFIED'
  | 0
  | 'JOKER_KIND_WILD'
  | 1
  | 'JOKER_KIND_HEART_1911'
  | 2

export type JokerKind__Output = typeof JokerKind[keyof typeof JokerKind]

// Original file: proto/hearts/v1/rules.proto

export const BrokenBy = {
  BROKEN_BY_UNSPECIFIED: 'BROKEN_BY_UNSPECIFIED',
  BROKEN_BY_HEARTS: 'BROKEN_BY_HEARTS',
  BROKEN_BY_HEARTS_OR_QUEEN: 'BROKEN_BY_HEARTS_OR_QUEEN',
  BROKEN_BY_POINT_CARDS: 'BROKEN_BY_POINT_CARDS',
} as const;

export type BrokenBy =
  | 'BROKEN_BY_UNSPECIFIED'
  | 0
  | 'BROKEN_BY_HEARTS'
  | 1
  | 'BROKEN_BY_HEARTS_OR_QUEEN'
  | 2
  | 'BROKEN_BY_POINT_CARDS'
  | 3

export type BrokenBy__Output = typeof BrokenBy[keyof typeof BrokenBy]

// Original file: proto/hearts/v1/rules.proto

export const Opening = {
  OPENING_UNSPECIFIED: 'OPENING_UNSPECIFIED',
  OPENING_LOWEST_CLUB: 'OPENING_LOWEST_CLUB',
  OPENING_ANY_CLUB: 'OPENING_ANY_CLUB',
  OPENING_LEFT_OF_DEALER: 'OPENING_LEFT_OF_DEALER',
  OPENING_LOWEST_SPADE: 'OPENING_LOWEST_SPADE',
} as const;

export type Opening =
  | 'OPENING_UNSPECIFIED'
  | 0
  | 'OPENING_LOWEST_CLUB'
  | 1
  | 'OPENING_ANY_CLUB'
  | 2
  | 'OPENING_LEFT_OF_DEALER'
  | 3
  | 'OPENING_LOWEST_SPADE'
  | 4

export type Opening__Output = typeof Opening[keyof typeof Opening]

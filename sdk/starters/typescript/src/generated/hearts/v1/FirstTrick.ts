// Original file: proto/hearts/v1/rules.proto

export const FirstTrick = {
  FIRST_TRICK_UNSPECIFIED: 'FIRST_TRICK_UNSPECIFIED',
  FIRST_TRICK_ANY: 'FIRST_TRICK_ANY',
  FIRST_TRICK_NO_PENALTY_CARDS: 'FIRST_TRICK_NO_PENALTY_CARDS',
  FIRST_TRICK_NO_POINT_CARDS: 'FIRST_TRICK_NO_POINT_CARDS',
} as const;

export type FirstTrick =
  | 'FIRST_TRICK_UNSPECIFIED'
  | 0
  | 'FIRST_TRICK_ANY'
  | 1
  | 'FIRST_TRICK_NO_PENALTY_CARDS'
  | 2
  | 'FIRST_TRICK_NO_POINT_CARDS'
  | 3

export type FirstTrick__Output = typeof FirstTrick[keyof typeof FirstTrick]

// Original file: proto/hearts/v1/rules.proto

export const PennyPlay = {
  PENNY_PLAY_UNSPECIFIED: 'PENNY_PLAY_UNSPECIFIED',
  PENNY_PLAY_NONE: 'PENNY_PLAY_NONE',
  PENNY_PLAY_SIMPLE: 'PENNY_PLAY_SIMPLE',
  PENNY_PLAY_ADVANCED: 'PENNY_PLAY_ADVANCED',
} as const;

export type PennyPlay =
  | 'PENNY_PLAY_UNSPECIFIED'
  | 0
  | 'PENNY_PLAY_NONE'
  | 1
  | 'PENNY_PLAY_SIMPLE'
  | 2
  | 'PENNY_PLAY_ADVANCED'
  | 3

export type PennyPlay__Output = typeof PennyPlay[keyof typeof PennyPlay]

// Original file: proto/hearts/v1/rules.proto

export const ScoringSuitChoice = {
  SCORING_SUIT_CHOICE_UNSPECIFIED: 'SCORING_SUIT_CHOICE_UNSPECIFIED',
  SCORING_SUIT_CHOICE_FIXED: 'SCORING_SUIT_CHOICE_FIXED',
  SCORING_SUIT_CHOICE_REVEALED: 'SCORING_SUIT_CHOICE_REVEALED',
  SCORING_SUIT_CHOICE_AUCTION: 'SCORING_SUIT_CHOICE_AUCTION',
} as const;

export type ScoringSuitChoice =
  | 'SCORING_SUIT_CHOICE_UNSPECIFIED'
  | 0
  | 'SCORING_SUIT_CHOICE_FIXED'
  | 1
  | 'SCORING_SUIT_CHOICE_REVEALED'
  | 2
  | 'SCORING_SUIT_CHOICE_AUCTION'
  | 3

export type ScoringSuitChoice__Output = typeof ScoringSuitChoice[keyof typeof ScoringSuitChoice]

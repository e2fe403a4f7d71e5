// Original file: proto/hearts/v1/game.proto

export const MatchEndReason = {
  MATCH_END_REASON_UNSPECIFIED: 'MATCH_END_REASON_UNSPECIFIED',
  MATCH_END_REASON_COMPLETED: 'MATCH_END_REASON_COMPLETED',
  MATCH_END_REASON_ABORTED: 'MATCH_END_REASON_ABORTED',
} as const;

export type MatchEndReason =
  | 'MATCH_END_REASON_UNSPECIFIED'
  | 0
  | 'MATCH_END_REASON_COMPLETED'
  | 1
  | 'MATCH_END_REASON_ABORTED'
  | 2

export type MatchEndReason__Output = typeof MatchEndReason[keyof typeof MatchEndReason]

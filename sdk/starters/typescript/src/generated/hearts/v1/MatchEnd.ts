// Original file: proto/hearts/v1/game.proto

import type { MatchEndReason as _hearts_v1_MatchEndReason, MatchEndReason__Output as _hearts_v1_MatchEndReason__Output } from '../../hearts/v1/MatchEndReason';

export interface MatchEnd {
  'reason'?: (_hearts_v1_MatchEndReason);
  'scores'?: (number)[];
  'hands_played'?: (number);
}

export interface MatchEnd__Output {
  'reason': (_hearts_v1_MatchEndReason__Output);
  'scores': (number)[];
  'hands_played': (number);
}

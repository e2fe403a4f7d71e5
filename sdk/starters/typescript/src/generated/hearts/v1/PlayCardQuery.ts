// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';
import type { PennyMove as _hearts_v1_PennyMove, PennyMove__Output as _hearts_v1_PennyMove__Output } from '../../hearts/v1/PennyMove';

export interface PlayCardQuery {
  'state'?: (_hearts_v1_HandState | null);
  'legal_cards'?: (string)[];
  'legal_moves'?: (_hearts_v1_PennyMove)[];
}

export interface PlayCardQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'legal_cards': (string)[];
  'legal_moves': (_hearts_v1_PennyMove__Output)[];
}

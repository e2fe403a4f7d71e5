// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';

export interface RevealCardQuery {
  'state'?: (_hearts_v1_HandState | null);
}

export interface RevealCardQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
}

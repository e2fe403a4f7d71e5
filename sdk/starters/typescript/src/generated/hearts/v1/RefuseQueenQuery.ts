// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';

export interface RefuseQueenQuery {
  'state'?: (_hearts_v1_HandState | null);
  'giver'?: (number);
}

export interface RefuseQueenQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'giver': (number);
}

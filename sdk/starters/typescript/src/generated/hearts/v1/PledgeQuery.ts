// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';

export interface PledgeQuery {
  'state'?: (_hearts_v1_HandState | null);
  'points'?: (number);
}

export interface PledgeQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'points': (number);
}

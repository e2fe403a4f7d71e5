// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';

export interface BidQuery {
  'state'?: (_hearts_v1_HandState | null);
  'min_bid'?: (number);
  'max_bid'?: (number);
}

export interface BidQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'min_bid': (number);
  'max_bid': (number);
}

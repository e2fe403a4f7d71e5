// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';

export interface ExposeQuery {
  'state'?: (_hearts_v1_HandState | null);
  'exposable'?: (string)[];
}

export interface ExposeQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'exposable': (string)[];
}

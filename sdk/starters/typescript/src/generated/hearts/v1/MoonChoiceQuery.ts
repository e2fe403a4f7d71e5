// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';

export interface MoonChoiceQuery {
  'state'?: (_hearts_v1_HandState | null);
  'worth'?: (number);
  'default_subtract'?: (boolean);
}

export interface MoonChoiceQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'worth': (number);
  'default_subtract': (boolean);
}

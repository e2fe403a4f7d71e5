// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';

export interface ReplacePassQuery {
  'state'?: (_hearts_v1_HandState | null);
  'legal'?: (string)[];
  'default_card'?: (string);
}

export interface ReplacePassQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'legal': (string)[];
  'default_card': (string);
}

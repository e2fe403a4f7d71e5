// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';
import type { PassDirection as _hearts_v1_PassDirection, PassDirection__Output as _hearts_v1_PassDirection__Output } from '../../hearts/v1/PassDirection';

export interface CallPassQuery {
  'state'?: (_hearts_v1_HandState | null);
  'options'?: (_hearts_v1_PassDirection)[];
  'split_directions'?: (_hearts_v1_PassDirection)[];
  'counts'?: (number)[];
}

export interface CallPassQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'options': (_hearts_v1_PassDirection__Output)[];
  'split_directions': (_hearts_v1_PassDirection__Output)[];
  'counts': (number)[];
}

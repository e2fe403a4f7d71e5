// Original file: proto/hearts/v1/game.proto

import type { HandState as _hearts_v1_HandState, HandState__Output as _hearts_v1_HandState__Output } from '../../hearts/v1/HandState';
import type { PassDirection as _hearts_v1_PassDirection, PassDirection__Output as _hearts_v1_PassDirection__Output } from '../../hearts/v1/PassDirection';

export interface PassCardsQuery {
  'state'?: (_hearts_v1_HandState | null);
  'direction'?: (_hearts_v1_PassDirection);
  'count'?: (number);
  'recipients'?: (number)[];
}

export interface PassCardsQuery__Output {
  'state': (_hearts_v1_HandState__Output | null);
  'direction': (_hearts_v1_PassDirection__Output);
  'count': (number);
  'recipients': (number)[];
}

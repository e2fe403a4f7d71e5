// Original file: proto/hearts/v1/game.proto

import type { PassDirection as _hearts_v1_PassDirection, PassDirection__Output as _hearts_v1_PassDirection__Output } from '../../hearts/v1/PassDirection';

export interface CallPassAnswer {
  'direction'?: (_hearts_v1_PassDirection);
  'split'?: (_hearts_v1_PassDirection)[];
  'count'?: (number);
  '_count'?: "count";
}

export interface CallPassAnswer__Output {
  'direction': (_hearts_v1_PassDirection__Output);
  'split': (_hearts_v1_PassDirection__Output)[];
  'count'?: (number);
  '_count'?: "count";
}

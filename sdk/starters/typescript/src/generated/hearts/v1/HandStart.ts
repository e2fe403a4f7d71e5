// Original file: proto/hearts/v1/game.proto

import type { PassDirection as _hearts_v1_PassDirection, PassDirection__Output as _hearts_v1_PassDirection__Output } from '../../hearts/v1/PassDirection';

export interface HandStart {
  'hand_number'?: (number);
  'dealer'?: (number);
  'hand'?: (string)[];
  'pass_direction'?: (_hearts_v1_PassDirection);
  'scores'?: (number)[];
  'kitty'?: (string)[];
}

export interface HandStart__Output {
  'hand_number': (number);
  'dealer': (number);
  'hand': (string)[];
  'pass_direction': (_hearts_v1_PassDirection__Output);
  'scores': (number)[];
  'kitty': (string)[];
}

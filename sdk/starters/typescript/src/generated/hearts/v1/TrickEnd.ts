// Original file: proto/hearts/v1/game.proto

import type { Trick as _hearts_v1_Trick, Trick__Output as _hearts_v1_Trick__Output } from '../../hearts/v1/Trick';

export interface TrickEnd {
  'hand_number'?: (number);
  'trick_number'?: (number);
  'trick'?: (_hearts_v1_Trick | null);
}

export interface TrickEnd__Output {
  'hand_number': (number);
  'trick_number': (number);
  'trick': (_hearts_v1_Trick__Output | null);
}

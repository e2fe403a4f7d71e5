// Original file: proto/hearts/v1/game.proto

import type { Trick as _hearts_v1_Trick, Trick__Output as _hearts_v1_Trick__Output } from '../../hearts/v1/Trick';

export interface DominoTrickEnd {
  'hand_number'?: (number);
  'trick_number'?: (number);
  'trick'?: (_hearts_v1_Trick | null);
  'seats'?: (number)[];
}

export interface DominoTrickEnd__Output {
  'hand_number': (number);
  'trick_number': (number);
  'trick': (_hearts_v1_Trick__Output | null);
  'seats': (number)[];
}

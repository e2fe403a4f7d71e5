// Original file: proto/hearts/v1/game.proto

import type { Rules as _hearts_v1_Rules, Rules__Output as _hearts_v1_Rules__Output } from '../../hearts/v1/Rules';
import type { Player as _hearts_v1_Player, Player__Output as _hearts_v1_Player__Output } from '../../hearts/v1/Player';
import type { Clock as _hearts_v1_Clock, Clock__Output as _hearts_v1_Clock__Output } from '../../hearts/v1/Clock';

export interface MatchStart {
  'match_id'?: (string);
  'rules'?: (_hearts_v1_Rules | null);
  'seat'?: (number);
  'players'?: (_hearts_v1_Player)[];
  'clock'?: (_hearts_v1_Clock | null);
  'resumed'?: (boolean);
}

export interface MatchStart__Output {
  'match_id': (string);
  'rules': (_hearts_v1_Rules__Output | null);
  'seat': (number);
  'players': (_hearts_v1_Player__Output)[];
  'clock': (_hearts_v1_Clock__Output | null);
  'resumed': (boolean);
}

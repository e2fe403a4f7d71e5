// Original file: proto/hearts/v1/game.proto

import type { DominoSeats as _hearts_v1_DominoSeats, DominoSeats__Output as _hearts_v1_DominoSeats__Output } from '../../hearts/v1/DominoSeats';

export interface DominoTable {
  'stock_size'?: (number);
  'in_play'?: (boolean)[];
  'drawn'?: (number)[];
  'trick_seats'?: (_hearts_v1_DominoSeats)[];
}

export interface DominoTable__Output {
  'stock_size': (number);
  'in_play': (boolean)[];
  'drawn': (number)[];
  'trick_seats': (_hearts_v1_DominoSeats__Output)[];
}

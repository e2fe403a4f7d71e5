// Original file: proto/hearts/v1/game.proto


export interface DominoSeats {
  'seats'?: (number)[];
}

export interface DominoSeats__Output {
  'seats': (number)[];
}

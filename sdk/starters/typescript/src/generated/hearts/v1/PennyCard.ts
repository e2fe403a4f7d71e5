// Original file: proto/hearts/v1/game.proto


export interface PennyCard {
  'seat'?: (number);
  'card'?: (string);
}

export interface PennyCard__Output {
  'seat': (number);
  'card': (string);
}

// Original file: proto/hearts/v1/game.proto


export interface PennyMove {
  'penny'?: (number);
  'card'?: (string);
}

export interface PennyMove__Output {
  'penny': (number);
  'card': (string);
}

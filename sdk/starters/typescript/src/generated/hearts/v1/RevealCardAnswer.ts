// Original file: proto/hearts/v1/game.proto


export interface RevealCardAnswer {
  'card'?: (string);
}

export interface RevealCardAnswer__Output {
  'card': (string);
}

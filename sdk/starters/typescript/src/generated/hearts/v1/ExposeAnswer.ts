// Original file: proto/hearts/v1/game.proto


export interface ExposeAnswer {
  'cards'?: (string)[];
}

export interface ExposeAnswer__Output {
  'cards': (string)[];
}

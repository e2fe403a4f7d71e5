// Original file: proto/hearts/v1/game.proto


export interface PassCardsAnswer {
  'cards'?: (string)[];
}

export interface PassCardsAnswer__Output {
  'cards': (string)[];
}

// Original file: proto/hearts/v1/game.proto


export interface RefuseQueenAnswer {
  'refuse'?: (boolean);
}

export interface RefuseQueenAnswer__Output {
  'refuse': (boolean);
}

// Original file: proto/hearts/v1/game.proto


export interface PlayCardAnswer {
  'card'?: (string);
  'penny'?: (number);
  '_penny'?: "penny";
}

export interface PlayCardAnswer__Output {
  'card': (string);
  'penny'?: (number);
  '_penny'?: "penny";
}

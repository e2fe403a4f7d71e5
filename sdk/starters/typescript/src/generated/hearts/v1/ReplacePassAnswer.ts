// Original file: proto/hearts/v1/game.proto


export interface ReplacePassAnswer {
  'card'?: (string);
}

export interface ReplacePassAnswer__Output {
  'card': (string);
}

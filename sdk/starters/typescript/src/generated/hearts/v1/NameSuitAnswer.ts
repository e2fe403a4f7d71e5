// Original file: proto/hearts/v1/game.proto


export interface NameSuitAnswer {
  'suit'?: (string);
}

export interface NameSuitAnswer__Output {
  'suit': (string);
}

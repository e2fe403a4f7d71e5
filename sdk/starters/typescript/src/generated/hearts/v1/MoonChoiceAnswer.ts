// Original file: proto/hearts/v1/game.proto


export interface MoonChoiceAnswer {
  'subtract'?: (boolean);
}

export interface MoonChoiceAnswer__Output {
  'subtract': (boolean);
}

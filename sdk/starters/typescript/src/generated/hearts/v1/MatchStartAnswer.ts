// Original file: proto/hearts/v1/game.proto


export interface MatchStartAnswer {
  'wants_notifications'?: (boolean);
  'answers'?: (string)[];
  'reads'?: (string)[];
}

export interface MatchStartAnswer__Output {
  'wants_notifications': (boolean);
  'answers': (string)[];
  'reads': (string)[];
}

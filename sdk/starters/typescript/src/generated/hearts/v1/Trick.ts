// Original file: proto/hearts/v1/game.proto


export interface Trick {
  'leader'?: (number);
  'cards'?: (string)[];
  'winner'?: (number);
  'seats'?: (number)[];
  '_winner'?: "winner";
}

export interface Trick__Output {
  'leader': (number);
  'cards': (string)[];
  'winner'?: (number);
  'seats': (number)[];
  '_winner'?: "winner";
}

// Original file: proto/hearts/v1/game.proto


export interface Bid {
  'seat'?: (number);
  'chips'?: (number);
  '_chips'?: "chips";
}

export interface Bid__Output {
  'seat': (number);
  'chips'?: (number);
  '_chips'?: "chips";
}

// Original file: proto/hearts/v1/game.proto


export interface BidAnswer {
  'chips'?: (number);
  '_chips'?: "chips";
}

export interface BidAnswer__Output {
  'chips'?: (number);
  '_chips'?: "chips";
}

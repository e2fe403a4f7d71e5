// Original file: proto/hearts/v1/game.proto


export interface QueenOffer {
  'giver'?: (number);
  'receiver'?: (number);
  'refused'?: (boolean);
  '_refused'?: "refused";
}

export interface QueenOffer__Output {
  'giver': (number);
  'receiver': (number);
  'refused'?: (boolean);
  '_refused'?: "refused";
}

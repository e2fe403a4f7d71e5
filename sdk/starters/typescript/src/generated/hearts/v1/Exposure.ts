// Original file: proto/hearts/v1/game.proto


export interface Exposure {
  'seat'?: (number);
  'cards'?: (string)[];
}

export interface Exposure__Output {
  'seat': (number);
  'cards': (string)[];
}

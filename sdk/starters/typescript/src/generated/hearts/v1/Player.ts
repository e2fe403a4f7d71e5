// Original file: proto/hearts/v1/game.proto


export interface Player {
  'seat'?: (number);
  'name'?: (string);
}

export interface Player__Output {
  'seat': (number);
  'name': (string);
}
